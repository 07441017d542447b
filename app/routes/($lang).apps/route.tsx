import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { informationPage } from "#app/information/information-page.server.ts";
import type { AmpView } from "#app/shell/amp-view.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import pagesStyles from "#app/styles/pages.css";
import { storeLinks } from "#rules/app-links.ts";
import { localizedPath } from "#rules/path.ts";
import { platformOf } from "#rules/user-agent.ts";
import { AppsView } from "./view";

// Spec 000 §1 "app download prompts", §2 page type `apps`: the store of the visitor's platform
// first, both stores' badges as links, and the recognition button. AMP form too (one document for
// every visitor there: both stores, in the fixed order).

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

// The store shown first depends on the device.
export const headers: HeadersFunction = () => ({ Vary: "User-Agent" });

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = { namespace: "apps", title: "common:pageTitle.apps", description: "apps:intro" } as const;
  return informationPage({ params, context, request }, head, ({ lang }) => {
    const platform = context.edge.isAmp ? "web" : platformOf(request.headers.get("user-agent"));
    const stores = platform === "android" ? (["android", "ios"] as const) : (["ios", "android"] as const);
    return {
      platform,
      stores: stores.map((store) => ({ store, href: storeLinks[store] })),
      identifyHref: localizedPath(lang, "/identify"),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => <AppsView page={data.page} />;

export default function Apps() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("apps", strings);
  return <AppsView page={page} />;
}
