import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { shareSheetCommandSchema } from "#app/bridge/bridge-schema.ts";
import { requireKnownLanguage, throwSiteError } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { requestMeta } from "#app/shell/meta.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import styles from "#app/styles/app.css";
import { ShareEmpty, ShareSheet, useShareData } from "#app/ui/share-sheet.tsx";
import { SiteError } from "#rules/errors.ts";
import { localizedPath } from "#rules/path.ts";

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
