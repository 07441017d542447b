import { type PrivacyHrefs, PrivacyLayout } from "#app/privacy/privacy.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";

/** The privacy landing: our privacy in three sentences, and what a person can do. */
export function PrivacyLandingView({ page }: { page: { hrefs: PrivacyHrefs; answerTime: string } }) {
  const { t } = useTranslation("privacy");
  const { Link } = usePrimitives();
  const actions = [
    { key: "policy", text: t("landing.policyText") },
    { key: "download", text: t("landing.downloadText") },
    { key: "delete", text: t("landing.deleteText") },
    { key: "dataCategories", text: t("landing.dataCategoriesText") },
    { key: "transferNotice", text: t("landing.transferNoticeText") },
  ] as const;
  return (
    <PrivacyLayout page="landing" hrefs={page.hrefs} title={t("landing.title")} intro={t("landing.intro")}>
      <ul className="privacy-points">
        <li>{t("landing.withoutAccount")}</li>
        <li>{t("landing.withAccount")}</li>
        <li>{t("landing.control")}</li>
      </ul>
      <section aria-labelledby="privacy-pages">
        <h2 id="privacy-pages">{t("landing.pagesTitle")}</h2>
        <ul className="privacy-cards">
          {actions.map((action) => (
            <li key={action.key} className="card">
              <Link href={page.hrefs[action.key]} className="privacy-cards__link">
                {t(`nav.${action.key}`)}
              </Link>
              <p>{action.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <p className="muted">{t("answerTime", { duration: page.answerTime })}</p>
    </PrivacyLayout>
  );
}
