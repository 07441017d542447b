import { LegalPreamble, LegalSections } from "#app/legal/legal.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import type { LegalSection } from "#rules/legal.ts";

/** The terms of use: the English terms, then the French terms under their own anchor. */
export function TermsView({
  page,
}: {
  page: {
    sections: readonly LegalSection[];
    french: { id: string; sections: readonly LegalSection[] };
    updated: string;
  };
}) {
  const { t } = useTranslation("legal");
  return (
    <article className="legal" aria-labelledby="terms-title">
      <h1 id="terms-title">{t("terms.title")}</h1>
      <LegalPreamble
        sections={page.sections}
        bodyLang="en"
        updated={page.updated}
        notice={t("terms.notice")}
        extra={{ id: page.french.id, text: "Conditions d'utilisation en français", lang: "fr" }}
      />
      <LegalSections sections={page.sections} lang="en" />
      <section id={page.french.id} lang="fr" className="legal__french" aria-labelledby="french-terms-title">
        <h2 id="french-terms-title">Conditions d'utilisation en français</h2>
        <LegalSections sections={page.french.sections} lang="fr" level={3} />
      </section>
    </article>
  );
}
