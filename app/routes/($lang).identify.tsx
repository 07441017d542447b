import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { RecentIdentifications } from "#app/recognition/recent-identifications.tsx";
import { recognitionPage } from "#app/recognition/recognition-page.server.ts";
import { RecognitionPanel } from "#app/recognition/recognition-panel.tsx";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import styles from "#app/styles/recognition.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** The beacon screenname of the page (spec 000 §3): what the recognition's statistics carry. */
const screenname = "identify";

export function loader(args: LoaderFunctionArgs) {
  return recognitionPage(args, "recognition:metaTitle");
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
