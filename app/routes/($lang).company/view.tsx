import { useTranslation } from "#app/shell/strings.ts";
import { Hero } from "#app/ui/hero.tsx";

/** About us: what Tunewave does, where its music comes from, and what recognition keeps private. */
export function CompanyView({ page }: { page: { identifyHref: string; chartsHref: string } }) {
  const { t } = useTranslation("company");
  const sections = [
    { id: "company-what", title: t("whatTitle"), text: t("whatText") },
    { id: "company-catalogue", title: t("catalogueTitle"), text: t("catalogueText") },
    { id: "company-privacy", title: t("privacyTitle"), text: t("privacyText") },
  ];
  return (
    <article className="company-page">
      <Hero
        id="company-title"
        title={t("title")}
        text={t("intro")}
        actions={[
          { href: page.identifyHref, label: t("identify") },
          { href: page.chartsHref, label: t("charts") },
        ]}
      />
      {sections.map((section) => (
        <section className="section" aria-labelledby={section.id} key={section.id}>
          <h2 id={section.id}>{section.title}</h2>
          <p className="card">{section.text}</p>
        </section>
      ))}
    </article>
  );
}
