import { useTranslation } from "#app/shell/strings.ts";
import { FormMessage } from "#app/ui/form-fields.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { StoredSurveyAnswer } from "#rules/forms.ts";

/** Thanks, and what the visitor answered. */
export function SurveyThanksView({
  page,
}: {
  page: { answer: StoredSurveyAnswer; answeredOn: string; homeHref: string };
}) {
  const { t } = useTranslation("forms");
  const { Link } = usePrimitives();
  return (
    <article className="site-page" aria-labelledby="survey-thanks-title">
      <h1 id="survey-thanks-title">{t("survey.thanksTitle")}</h1>
      <FormMessage kind="status">
        <p>{t("survey.thanks")}</p>
      </FormMessage>
      <section className="card" aria-labelledby="survey-answer-title">
        <h2 id="survey-answer-title">{t("survey.yourAnswer", { date: page.answeredOn })}</h2>
        <dl className="site-page__facts">
          <dt>{t("survey.satisfaction")}</dt>
          <dd>{t(`survey.score.${page.answer.satisfaction}`)}</dd>
          <dt>{t("survey.found")}</dt>
          <dd>{t(`survey.foundAnswer.${page.answer.found}`)}</dd>
          {page.answer.comment ? (
            <>
              <dt>{t("survey.comment")}</dt>
              <dd className="site-page__quote">{page.answer.comment}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <p>
        <Link href={page.homeHref}>{t("backHome")}</Link>
      </p>
    </article>
  );
}
