import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { RecentIdentifications } from "#app/recognition/recent-identifications.tsx";
import { recognitionPanelData } from "#app/recognition/recognition-panel.server.ts";
import { RecognitionPanel } from "#app/recognition/recognition-panel.tsx";
import { featureEnabledFor } from "#app/shell/features.server.ts";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { requestMeta } from "#app/shell/meta.server.ts";
import { type PageMeta, pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import styles from "#app/styles/recognition.css";
import { featureNames } from "#rules/feature-names.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** The beacon screenname of the page (spec 000 §3): what the recognition's statistics carry. */
const screenname = "identify";

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { edge } = context;
  const { t } = serverStrings(edge.lang);
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("recognition:metaTitle"),
    description: t("recognition:metaDescription"),
    type: "website",
  };
  return {
    meta,
    page: recognitionPanelData(
      edge,
      new URL(request.url).searchParams,
      await featureEnabledFor(context, request, featureNames.webrec),
    ),
    strings: pickResources(edge.lang, ["recognition"]).recognition,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function Identify() {
  const { page, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("recognition", strings);
  return (
    <section className="recognition" aria-labelledby="recognition-title">
      <h1 id="recognition-title">{t("title")}</h1>
      <p className="recognition__intro">{t("intro", { seconds: page.listenSeconds })}</p>
      <RecognitionPanel {...page} screenname={screenname} strings={strings} moreInputs />
      <RecentIdentifications lang={page.lang} strings={strings} />
      <noscript>
        <p className="recognition__note">{t("noscript")}</p>
      </noscript>
      <p className="recognition__privacy muted">{t("privacy")}</p>
    </section>
  );
}
