import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { AmpView } from "#app/shell/amp-view.ts";
import { loadPage, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import { homePageMeta, loadHomePage } from "./page.server";
import { HomeView } from "./view";

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const page = await loadPage(() => loadHomePage(context, new Date()));
  const { t } = serverStrings(context.edge.lang);
  const meta = homePageMeta(context, request, t);
  return { page, meta, strings: pickResources(context.edge.lang, ["home"]).home };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => <HomeView page={data.page} />;

export default function Home() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("home", strings);
  return <HomeView page={page} />;
}
