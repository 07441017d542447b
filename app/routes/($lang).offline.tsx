import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { RecentIdentifications } from "#app/recognition/recent-identifications.tsx";
import { recognitionPage } from "#app/recognition/recognition-page.server.ts";
import { RecognitionPanel } from "#app/recognition/recognition-panel.tsx";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import styles from "#app/styles/recognition.css";

/**
 * The offline page (docs/decisions/057-heard-offline.md): what the service worker answers a
 * navigation with when the network is down, from the copy it keeps of this page (fetched without
 * cookies, so every visitor's). The listen button still works: the signature is made in the
 * browser, and what is heard is kept on the device until it can be identified.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** The identify page's statistics: this is its screen without a network. */
const screenname = "identify";

export function loader(args: LoaderFunctionArgs) {
  return recognitionPage(args, "recognition:offline.metaTitle");
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [...pageMeta(data.meta), { name: "robots", content: "noindex" }] : [];

export default function Offline() {
  const { page, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("recognition", strings);
  return (
    <section className="recognition" aria-labelledby="recognition-title">
      <h1 id="recognition-title">{t("offline.title")}</h1>
      <p className="recognition__intro">{t("offline.text")}</p>
      <RecognitionPanel {...page} screenname={screenname} strings={strings} moreInputs />
      <RecentIdentifications lang={page.lang} strings={strings} whateverTheAccount />
      <p className="recognition__privacy muted">{t("privacy")}</p>
    </section>
  );
}
