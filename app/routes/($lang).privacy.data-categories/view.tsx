import { type PrivacyHrefs, PrivacyLayout, PrivacySignIn } from "#app/privacy/privacy.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { type PrivacyDataCategory, privacyDataCategoryKeys } from "#rules/privacy.ts";

type Category = PrivacyDataCategory;

const counts = [
  "sessions",
  "tags",
  "hiddenTags",
  "offerCodes",
  "verificationRequests",
  "streamingConnections",
  "surveyAnswers",
  "signInRequests",
  "dataExports",
] as const;

/** The data categories: one card per kind of data (what, why, how long), then the person's own. */
export function DataCategoriesView({
  page,
}: {
  page: {
    hrefs: PrivacyHrefs;
    signInHref: string;
    answerTime: string;
    durations: Partial<Record<Category, Record<string, string>>>;
    yours: { email: string; since: string; counts: Record<(typeof counts)[number], string> } | null;
    signedIn: boolean;
  };
}) {
  const { t } = useTranslation("privacy");
  const { t: common } = useTranslation("common");
  return (
    <PrivacyLayout
      page="dataCategories"
      hrefs={page.hrefs}
      title={t("categories.title")}
      intro={t("categories.intro")}
    >
      <ul className="privacy-categories">
        {privacyDataCategoryKeys.map((key) => (
          <li key={key} className="card" aria-labelledby={`category-${key}`}>
            <h2 id={`category-${key}`}>{t(`categories.${key}.title`)}</h2>
            <dl>
              <dt>{t("categories.what")}</dt>
              <dd>{t(`categories.${key}.what`)}</dd>
              <dt>{t("categories.why")}</dt>
              <dd>{t(`categories.${key}.why`)}</dd>
              <dt>{t("categories.howLong")}</dt>
              <dd>{t(`categories.${key}.howLong`, page.durations[key] ?? {})}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <section aria-labelledby="categories-yours" className="privacy-yours">
        <h2 id="categories-yours">{t("categories.yoursTitle")}</h2>
        {page.yours ? (
          <dl className="privacy-yours__list card">
            {[
              ["email", page.yours.email],
              ["since", page.yours.since],
              ...counts.map((key) => [key, page.yours?.counts[key] ?? ""] as const),
            ].map(([key, value]) => (
              <div key={key} className="privacy-yours__row">
                <dt>{t(`categories.yours.${key}`)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        ) : page.signedIn ? (
          <p role="alert">{common("error.serviceerror")}</p>
        ) : (
          <PrivacySignIn text={t("categories.yoursSignedOut")} href={page.signInHref} />
        )}
      </section>
      <p className="muted">{t("answerTime", { duration: page.answerTime })}</p>
    </PrivacyLayout>
  );
}
