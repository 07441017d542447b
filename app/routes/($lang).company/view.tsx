import { useTranslation } from "react-i18next";
import { usePrimitives } from "~/components/primitives";

/** About us: what Tunewave does, where its music comes from, and what recognition keeps private. */
export function CompanyView({ page }: { page: { identifyHref: string; chartsHref: string } }) {
  const { t } = useTranslation("company");
  const { Link } = usePrimitives();
  const sections = [
    { id: "company-what", title: t("whatTitle"), text: t("whatText") },
    { id: "company-catalogue", title: t("catalogueTitle"), text: t("catalogueText") },
    { id: "company-privacy", title: t("privacyTitle"), text: t("privacyText") },
  ];
  return (
    <article className="company-page">
      <section className="hero" aria-labelledby="company-title">
        <h1 id="company-title">{t("title")}</h1>
        <p>{t("intro")}</p>
        <p className="hero__actions">
          <Link className="button button--light" href={page.identifyHref}>
            {t("identify")}
          </Link>
          <Link className="button button--outline" href={page.chartsHref}>
            {t("charts")}
          </Link>
        </p>
      </section>
      {sections.map((section) => (
        <section className="section" aria-labelledby={section.id} key={section.id}>
          <h2 id={section.id}>{section.title}</h2>
          <p className="card">{section.text}</p>
        </section>
      ))}
    </article>
  );
}
