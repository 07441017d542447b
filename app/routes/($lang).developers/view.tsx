import { Fragment } from "react";
import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";

const requestFields = ["data", "sessionId", "lang", "country"] as const;

/** The recognition kit for developers: what it is, the match call, an example that runs. */
export function DevelopersView({
  page,
}: {
  page: {
    example: string;
    exampleCommand: string;
    recognizeCommand: string;
    identifyHref: string;
    termsHref: string;
  };
}) {
  const { t } = useTranslation("developers");
  const { Link } = usePrimitives();
  return (
    <article className="site-page site-page--wide" aria-labelledby="developers-title">
      <h1 id="developers-title">{t("title")}</h1>
      <p className="site-page__intro">{t("intro")}</p>
      <section aria-labelledby="developers-signature">
        <h2 id="developers-signature">{t("signatureTitle")}</h2>
        <p>{t("signatureText")}</p>
      </section>
      <section aria-labelledby="developers-match">
        <h2 id="developers-match">{t("matchTitle")}</h2>
        <p>
          <code>POST /services/webrec/match</code>
        </p>
        <dl className="site-page__facts">
          {requestFields.map((field) => (
            <Fragment key={field}>
              <dt>
                <code>{field}</code>
              </dt>
              <dd>{t(`fields.${field}`)}</dd>
            </Fragment>
          ))}
        </dl>
        <p>{t("matchAnswer")}</p>
      </section>
      <section aria-labelledby="developers-example">
        <h2 id="developers-example">{t("exampleTitle")}</h2>
        <p>{t("exampleText")}</p>
        <pre className="code">
          <code>{page.exampleCommand}</code>
        </pre>
        <pre className="code">
          <code>{page.example}</code>
        </pre>
        <p>{t("cliText")}</p>
        <pre className="code">
          <code>{page.recognizeCommand}</code>
        </pre>
      </section>
      <p>
        {t("tryIt")} <Link href={page.identifyHref}>{t("identify")}</Link> ·{" "}
        <Link href={page.termsHref}>{t("terms")}</Link>
      </p>
    </article>
  );
}
