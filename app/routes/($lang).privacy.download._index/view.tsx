import { Form } from "@remix-run/react";
import { type PrivacyHrefs, PrivacyLayout, PrivacySignIn } from "#app/privacy/privacy.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { FormMessage } from "#app/ui/form-fields.tsx";

export type DownloadOutcome =
  | { outcome: "sent"; email: string; until: string }
  | { outcome: "inprocess"; created: string; until: string }
  | { outcome: "notconfirmed" | "failed" };

const contents = ["account", "sessions", "tags", "signInRequests", "dataExports"] as const;
/** The other data categories the account may hold, in the data-categories page's own words. */
const alsoHeld = ["offerCodes", "verificationRequests", "streamingConnections", "surveyAnswers"] as const;

/** The data download page: what the file holds, how it reaches you, and the request. */
export function DownloadRequestView({
  page,
  result,
  sending,
}: {
  page: {
    hrefs: PrivacyHrefs;
    email: string | null;
    signInHref: string;
    linkLifetime: string;
    answerTime: string;
  };
  result: DownloadOutcome | undefined;
  sending: boolean;
}) {
  const { t } = useTranslation("privacy");
  const { t: common } = useTranslation("common");
  const problem = result?.outcome === "notconfirmed" || result?.outcome === "failed";
  return (
    <PrivacyLayout page="download" hrefs={page.hrefs} title={t("download.title")} intro={t("download.intro")}>
      <section aria-labelledby="download-contents">
        <h2 id="download-contents">{t("download.contentsTitle")}</h2>
        <ul className="privacy-points">
          {contents.map((key) => (
            <li key={key}>{t(`download.contents.${key}`)}</li>
          ))}
          {alsoHeld.map((key) => (
            <li key={key}>{t(`categories.${key}.what`)}</li>
          ))}
        </ul>
        <p>{t("download.formats")}</p>
      </section>
      <section aria-labelledby="download-how">
        <h2 id="download-how">{t("download.howTitle")}</h2>
        <p>{t("download.how", { duration: page.linkLifetime })}</p>
        <p>{t("answerTime", { duration: page.answerTime })}</p>
      </section>
      {result?.outcome === "sent" ? (
        <FormMessage kind="status">
          <p>{t("download.sent", { email: result.email, date: result.until })}</p>
        </FormMessage>
      ) : result?.outcome === "inprocess" ? (
        <FormMessage kind="alert">
          <p>
            <strong>{common("error.requestInProcess")}</strong>
          </p>
          <p>{t("download.inProcess", { created: result.created, until: result.until })}</p>
        </FormMessage>
      ) : page.email ? (
        <Form method="post" className="privacy-form card" aria-describedby="download-send-to">
          <p id="download-send-to">{t("download.sendTo", { email: page.email })}</p>
          <p className="privacy-form__check">
            <input
              id="download-confirm"
              type="checkbox"
              name="confirm"
              value="yes"
              required
              aria-invalid={result?.outcome === "notconfirmed" ? true : undefined}
              aria-describedby={problem ? "download-problem" : undefined}
            />
            <label htmlFor="download-confirm">{t("download.confirm")}</label>
          </p>
          {problem ? (
            <FormMessage kind="alert" id="download-problem">
              <p>{t(result.outcome === "failed" ? "download.failed" : "download.notConfirmed")}</p>
            </FormMessage>
          ) : null}
          <p>
            <button type="submit" className="button" disabled={sending}>
              {sending ? t("download.sending") : t("download.submit")}
            </button>
          </p>
        </Form>
      ) : (
        <PrivacySignIn text={t("signInFirst")} href={page.signInHref} />
      )}
    </PrivacyLayout>
  );
}
