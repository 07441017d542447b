import { LegalPreamble, LegalSections } from "#app/legal/legal.tsx";
import { type PrivacyHrefs, PrivacyLayout } from "#app/privacy/privacy.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import type { LegalSection } from "#rules/legal.ts";

/** The privacy policy: translated chrome, the English text, the privacy pages beside it. */
export function PrivacyPolicyView({
  page,
}: {
  page: { hrefs: PrivacyHrefs; sections: readonly LegalSection[]; updated: string };
}) {
  const { t } = useTranslation("legal");
  return (
    <PrivacyLayout page="policy" hrefs={page.hrefs} title={t("policy.title")}>
      <div className="legal">
        <LegalPreamble
          sections={page.sections}
          bodyLang="en"
          updated={page.updated}
          notice={t("policy.notice")}
        />
        <LegalSections sections={page.sections} lang="en" />
      </div>
    </PrivacyLayout>
  );
}
