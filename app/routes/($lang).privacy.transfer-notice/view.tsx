import { type PrivacyHrefs, PrivacyLayout } from "#app/privacy/privacy.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";

/** The transfer notice: where data is handled, its safeguards, and its deletion period. */
export function TransferNoticeView({
  page,
}: {
  page: { hrefs: PrivacyHrefs; deletionTime: string; answerTime: string };
}) {
  const { t } = useTranslation("privacy");
  const { Link } = usePrimitives();
  return (
    <PrivacyLayout
      page="transferNotice"
      hrefs={page.hrefs}
      title={t("transfer.title")}
      intro={t("transfer.intro")}
    >
      <p>{t("transfer.safeguards")}</p>
      <section aria-labelledby="transfer-deletion">
        <h2 id="transfer-deletion">{t("transfer.deletionTitle")}</h2>
        <p>
          <strong>{t("transfer.deletion", { duration: page.deletionTime })}</strong>
        </p>
        <p>{t("transfer.otherReading", { duration: page.answerTime })}</p>
      </section>
      <p>
        {t("transfer.questions")} <Link href={page.hrefs.dataCategories}>{t("nav.dataCategories")}</Link>
        {" · "}
        <Link href={page.hrefs.delete}>{t("nav.delete")}</Link>
      </p>
    </PrivacyLayout>
  );
}
