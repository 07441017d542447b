import { Form } from "@remix-run/react";
import { useTranslation } from "#app/shell/strings.ts";
import { ChoiceField, FormMessage, TextField } from "#app/ui/form-fields.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import { type FieldError, foundAnswers, freeTextMax, satisfactionScores } from "#rules/forms.ts";

export type SurveyResult = {
  outcome: "invalid" | "answered" | "limited" | "failed";
  errors: Partial<Record<string, FieldError>>;
  typed: Record<"satisfaction" | "found" | "comment", string>;
};

/** The satisfaction survey: three questions, or the polite note that this visitor has answered. */
export function SurveyView({
  page,
  result,
  sending,
}: {
  page: { answered: boolean; thanksHref: string };
  result: SurveyResult | undefined;
  sending: boolean;
}) {
  const { t } = useTranslation("forms");
  const { Link } = usePrimitives();
  const answered = page.answered || result?.outcome === "answered";
  return (
    <article className="site-page" aria-labelledby="survey-title">
      <h1 id="survey-title">{t("survey.title")}</h1>
      <p className="site-page__intro">{t("survey.intro")}</p>
      {answered ? (
        <FormMessage kind="status">
          <p>{t("survey.alreadyAnswered")}</p>
          <p>
            <Link href={page.thanksHref}>{t("survey.seeAnswer")}</Link>
          </p>
        </FormMessage>
      ) : (
        <>
          {result && result.outcome !== "invalid" ? (
            <FormMessage kind="alert">
              <p>{t(`outcome.${result.outcome}`)}</p>
            </FormMessage>
          ) : null}
          {result?.outcome === "invalid" ? (
            <FormMessage kind="alert">
              <p>{t("outcome.invalid")}</p>
            </FormMessage>
          ) : null}
          <Form method="post" className="site-form card" noValidate>
            <ChoiceField
              form="survey"
              name="satisfaction"
              label={t("survey.satisfaction")}
              error={result?.errors.satisfaction}
              value={result?.typed.satisfaction ?? ""}
              options={satisfactionScores.map((score) => ({
                value: score,
                label: t(`survey.score.${score}`),
              }))}
            />
            <ChoiceField
              form="survey"
              name="found"
              label={t("survey.found")}
              error={result?.errors.found}
              value={result?.typed.found ?? ""}
              options={foundAnswers.map((answer) => ({
                value: answer,
                label: t(`survey.foundAnswer.${answer}`),
              }))}
            />
            <TextField
              form="survey"
              name="comment"
              label={t("survey.comment")}
              hint={t("optional")}
              error={result?.errors.comment}
              value={result?.typed.comment ?? ""}
              multiline
              maxLength={freeTextMax}
            />
            <p>
              <button type="submit" className="button" disabled={sending}>
                {sending ? t("sending") : t("survey.submit")}
              </button>
            </p>
          </Form>
        </>
      )}
    </article>
  );
}
