import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { shareSheetCommandSchema } from "~/bridge-schema";
import { ShareEmpty, ShareSheet, useShareData } from "~/components/share-sheet";
import { requestMeta } from "~/data/meta.server";
import { requireKnownLanguage, throwSiteError } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import styles from "~/styles/app.css";
import { SiteError } from "../../rules/errors";
import { localizedPath } from "../../rules/path";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * `/share[/{screenname}]` (spec 000 §2): the full-screen share pop-up of the app's share-sheet
 * command. The share data travels in the location state, so the server always renders the page
 * for a visit without it; the component shows the pop-up once the data is there.
 */
export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const screenname = v.safeParse(shareSheetCommandSchema.entries.screenname, params.screenname);
  if (!screenname.success) throwSiteError(new SiteError("notfound", `no share screen ${params.screenname}`));
  const { lang } = context.edge;
  const { t } = serverStrings(lang);
  const meta = {
    ...requestMeta(context, request),
    title: t("common:pageTitle.share"),
    description: t("app:share.description"),
    type: "website" as const,
  };
  return { meta, homeHref: localizedPath(lang, "/"), strings: pickResources(lang, ["app"]).app };
}

// A pop-up over another page: nothing of its own to index.
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [...pageMeta(data.meta), { name: "robots", content: "noindex" }] : [];

export default function Share() {
  const { homeHref, strings } = useLoaderData<typeof loader>();
  usePageStrings("app", strings);
  const share = useShareData();
  return share ? <ShareSheet share={share} homeHref={homeHref} /> : <ShareEmpty homeHref={homeHref} />;
}
