import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/root";

/**
 * Spec 002 §8 "Error page": a localized apology chosen by error type, else the catch-all, with a
 * link home; the heading shows "sorry" plus the code.
 */
export function ErrorPage({ status, type }: { status: number; type: string | undefined }) {
  const { t, i18n } = useTranslation("common");
  const data = useRootData();
  const key = status === 404 ? "error.notfound" : `error.${type ?? "catchall"}`;
  const message = i18n.exists(key, { ns: "common" }) ? t(key) : t("error.catchall");
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">{t("error.sorry", { code: status })}</p>
      <h1 id="error-title">{status === 404 ? t("error.notfoundTitle") : t("error.title")}</h1>
      <p className="muted">{message}</p>
      <Link className="button" to={`${data?.pathPrefix ?? ""}/`}>
        {t("error.home")}
      </Link>
    </section>
  );
}
