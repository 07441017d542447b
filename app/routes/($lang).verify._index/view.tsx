import { Form } from "@remix-run/react";
import { useTranslation } from "#app/shell/strings.ts";
import { ChoiceField, FormMessage, TextField } from "#app/ui/form-fields.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import { type FieldError, freeTextMax, requesterRoles } from "#rules/forms.ts";

export type VerifyResult = {
  outcome: "invalid" | "limited" | "failed";
  errors: Partial<Record<string, FieldError>>;
  typed: Record<"artistName" | "email" | "role" | "link" | "message", string>;
};

/** Artist verification: who the artist is, who asks, where we can check it. */
export function VerifyView({
  page,
  result,
  sending,
}: {
  page: { termsHref: string; policyHref: string };
  result: VerifyResult | undefined;
  sending: boolean;
}) {
  const { t } = useTranslation("forms");
  const { Link } = usePrimitives();
  const errors = result?.errors ?? {};
  return (
    <article className="site-page" aria-labelledby="verify-title">
      <h1 id="verify-title">{t("verify.title")}</h1>
      <p className="site-page__intro">{t("verify.intro")}</p>
      <ol className="site-page__steps">
        <li>{t("verify.step1")}</li>
        <li>{t("verify.step2")}</li>
        <li>{t("verify.step3")}</li>
      </ol>
      {result ? (
        <FormMessage kind="alert">
          <p>{t(`outcome.${result.outcome}`)}</p>
        </FormMessage>
      ) : null}
      <Form method="post" className="site-form card" noValidate>
        <TextField
          form="verify"
          name="artistName"
          label={t("verify.artistName")}
          error={errors.artistName}
          value={result?.typed.artistName ?? ""}
          maxLength={100}
          required
        />
        <ChoiceField
          form="verify"
          name="role"
          label={t("verify.role")}
          error={errors.role}
          value={result?.typed.role ?? ""}
          options={requesterRoles.map((role) => ({ value: role, label: t(`verify.roles.${role}`) }))}
        />
        <TextField
          form="verify"
          name="email"
          label={t("verify.email")}
          error={errors.email}
          value={result?.typed.email ?? ""}
          type="email"
          autoComplete="email"
          maxLength={254}
          required
        />
        <TextField
          form="verify"
          name="link"
          label={t("verify.link")}
          hint={t("verify.linkHint")}
          error={errors.link}
          value={result?.typed.link ?? ""}
          type="url"
          maxLength={300}
          required
        />
        <TextField
          form="verify"
          name="message"
          label={t("verify.message")}
          hint={t("optional")}
          error={errors.message}
          value={result?.typed.message ?? ""}
          multiline
          maxLength={freeTextMax}
        />
        <p className="site-form__hint">
          {t("verify.consent")} <Link href={page.policyHref}>{t("policyLink")}</Link>
        </p>
        <p>
          <button type="submit" className="button" disabled={sending}>
            {sending ? t("sending") : t("verify.submit")}
          </button>
        </p>
      </Form>
    </article>
  );
}
