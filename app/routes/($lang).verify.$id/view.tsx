import { useTranslation } from "#app/shell/strings.ts";
import { FormMessage } from "#app/ui/form-fields.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { StoredVerification } from "#rules/forms.ts";

/** "We received your request": what was stored, and what happens next. */
export function VerificationReceivedView({
  page,
}: {
  page: { request: StoredVerification; receivedOn: string; homeHref: string };
}) {
  const { t } = useTranslation("forms");
  const { Link } = usePrimitives();
  const { request } = page;
  return (
    <article className="site-page" aria-labelledby="verify-received-title">
      <h1 id="verify-received-title">{t("verify.receivedTitle")}</h1>
      <FormMessage kind="status">
        <p>{t("verify.received", { email: request.email })}</p>
      </FormMessage>
      <section className="card" aria-labelledby="verify-request-title">
        <h2 id="verify-request-title">{t("verify.yourRequest", { date: page.receivedOn })}</h2>
        <dl className="site-page__facts">
          <dt>{t("verify.artistName")}</dt>
          <dd>{request.artistName}</dd>
          <dt>{t("verify.role")}</dt>
          <dd>{t(`verify.roles.${request.role}`)}</dd>
          <dt>{t("verify.email")}</dt>
          <dd>{request.email}</dd>
          <dt>{t("verify.link")}</dt>
          <dd>{request.link}</dd>
          {request.message ? (
            <>
              <dt>{t("verify.message")}</dt>
              <dd className="site-page__quote">{request.message}</dd>
            </>
          ) : null}
          <dt>{t("verify.status")}</dt>
          <dd>{t(`verify.statuses.${request.status}`)}</dd>
        </dl>
      </section>
      <p>
        <Link href={page.homeHref}>{t("backHome")}</Link>
      </p>
    </article>
  );
}
