import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { type PrivacyHrefs, PrivacyLayout, PrivacySignIn } from "#app/privacy/privacy.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { FormMessage } from "#app/ui/form-fields.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";

export type DeleteOutcome = { outcome: "mismatch" | "failed"; typed: string };

const gone = ["account", "tags", "sessions", "signInRequests", "dataExports"] as const;
/** The other data categories the account may hold, in the data-categories page's own words. */
const alsoHeld = ["offerCodes", "verificationRequests", "streamingConnections", "surveyAnswers"] as const;

/** Account deletion: what goes, what stays, when (both readings), and the confirmation. */
export function DeleteAccountView({
  page,
  result,
  deleting,
}: {
  page: {
    hrefs: PrivacyHrefs;
    email: string | null;
    deleted: boolean;
    signInHref: string;
    loginHref: string;
    answerTime: string;
    transferTime: string;
  };
  result: DeleteOutcome | undefined;
  deleting: boolean;
}) {
  const { t } = useTranslation("privacy");
  const { t: common } = useTranslation("common");
  const { Link } = usePrimitives();
  const emailRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (result?.outcome === "mismatch") emailRef.current?.focus();
  }, [result]);

  if (page.deleted) {
    return (
      <PrivacyLayout page="delete" hrefs={page.hrefs} title={t("delete.doneTitle")}>
        <FormMessage kind="status">
          <p>{t("delete.done")}</p>
        </FormMessage>
        <p>{t("delete.again")}</p>
        <p>
          <Link href={page.loginHref} className="button button--quiet">
            {common("account.signIn")}
          </Link>
        </p>
      </PrivacyLayout>
    );
  }

  const error = result
    ? t(result.outcome === "failed" ? "delete.failed" : "delete.mismatch", { email: page.email })
    : undefined;
  return (
    <PrivacyLayout page="delete" hrefs={page.hrefs} title={t("delete.title")} intro={t("delete.intro")}>
      <section aria-labelledby="delete-gone">
        <h2 id="delete-gone">{t("delete.goneTitle")}</h2>
        <ul className="privacy-points">
          {gone.map((key) => (
            <li key={key}>{t(`delete.gone.${key}`)}</li>
          ))}
          {alsoHeld.map((key) => (
            <li key={key}>{t(`categories.${key}.what`)}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="delete-stays">
        <h2 id="delete-stays">{t("delete.staysTitle")}</h2>
        <p>{t("delete.stays")}</p>
      </section>
      <section aria-labelledby="delete-when">
        <h2 id="delete-when">{t("delete.whenTitle")}</h2>
        <ul className="privacy-points">
          <li>{t("delete.answerReading", { duration: page.answerTime })}</li>
          <li>{t("delete.transferReading", { duration: page.transferTime })}</li>
        </ul>
        <p>
          <strong>{t("delete.stricter")}</strong>
        </p>
      </section>
      {page.email ? (
        <Form method="post" className="privacy-form privacy-form--danger card" noValidate>
          <p>
            {t("delete.downloadFirst")} <Link href={page.hrefs.download}>{t("nav.download")}</Link>
          </p>
          <label htmlFor="delete-email">{t("delete.confirmLabel", { email: page.email })}</label>
          <input
            ref={emailRef}
            id="delete-email"
            name="email"
            type="email"
            autoComplete="off"
            inputMode="email"
            required
            maxLength={254}
            defaultValue={result?.typed ?? ""}
            aria-invalid={result?.outcome === "mismatch" ? true : undefined}
            aria-describedby={error ? "delete-error" : undefined}
          />
          {error ? (
            <FormMessage kind="alert" id="delete-error">
              <p>{error}</p>
            </FormMessage>
          ) : null}
          <p>
            <button type="submit" className="button button--danger" disabled={deleting}>
              {deleting ? t("delete.deleting") : t("delete.submit")}
            </button>
          </p>
        </Form>
      ) : (
        <PrivacySignIn text={t("signInFirst")} href={page.signInHref} />
      )}
    </PrivacyLayout>
  );
}
