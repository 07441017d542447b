import { Form } from "@remix-run/react";
import { type PrivacyHrefs, PrivacyLayout } from "#app/privacy/privacy.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { FormMessage } from "#app/ui/form-fields.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { ExportRefusal } from "#rules/privacy.ts";

export type DownloadFile =
  | { outcome: "ready"; email: string; href: string; size: string; until: string }
  | { outcome: ExportRefusal | "failed" };

/** Each refusal's heading, and its text: the spec's message where it has one (spec 000 §8). */
const refusals = {
  wrongaccount: { title: "file.wrongAccountTitle", text: "common:error.wrongAccount" },
  expired: { title: "file.expiredTitle", text: "common:error.downloadExpired" },
  inprocess: { title: "file.inProcessTitle", text: "common:error.requestInProcess" },
  unknown: { title: "file.unknownTitle", text: "file.unknown" },
  failed: { title: "file.failedTitle", text: "file.failed" },
} as const;

/** The mailed link's page: the file to save, or why there is none. */
export function DownloadFileView({
  page,
  file,
}: {
  page: { hrefs: PrivacyHrefs; logoutHref: string; back: string };
  file: DownloadFile;
}) {
  const { t } = useTranslation("privacy");
  const { Link } = usePrimitives();
  if (file.outcome === "ready") {
    return (
      <PrivacyLayout page="download" hrefs={page.hrefs} title={t("file.readyTitle")}>
        <p>{t("file.ready", { email: file.email })}</p>
        <p>
          <Link href={file.href} className="button" download>
            {t("file.save", { size: file.size })}
          </Link>
        </p>
        <p className="muted">{t("file.until", { date: file.until })}</p>
      </PrivacyLayout>
    );
  }
  const refusal = refusals[file.outcome];
  return (
    <PrivacyLayout page="download" hrefs={page.hrefs} title={t(refusal.title)}>
      <FormMessage kind="alert">
        <p>{t(refusal.text)}</p>
      </FormMessage>
      {file.outcome === "wrongaccount" ? (
        <Form method="post" action={page.logoutHref} reloadDocument>
          <input type="hidden" name="redirect" value={page.back} />
          <button type="submit" className="button">
            {t("file.signOut")}
          </button>
        </Form>
      ) : file.outcome === "inprocess" ? null : (
        <p>
          <Link href={page.hrefs.download} className="button">
            {t("file.requestAgain")}
          </Link>
        </p>
      )}
    </PrivacyLayout>
  );
}
