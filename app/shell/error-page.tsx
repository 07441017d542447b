import { usePrimitives } from "#app/ui/primitives.tsx";
import { useTranslation } from "./strings";

/**
 * The apology for an error: a 404's own when its page names one (a concert's 'concert unavailable'),
 * else the not-found one for a 404, else the type's, else the catch-all.
 */
export function errorMessageKey(status: number, type: string | undefined, exists: (key: string) => boolean) {
  if (status === 404 && type && type !== "notfound" && exists(`error.${type}`)) return `error.${type}`;
  const key = status === 404 ? "error.notfound" : `error.${type ?? "catchall"}`;
  return exists(key) ? key : "error.catchall";
}

/** The error type a page's error answer carries (`throwSiteError` in app/shell/http.server.ts). */
export function errorTypeOf(data: unknown): string | undefined {
  if (data && typeof data === "object" && "type" in data && typeof data.type === "string") return data.type;
  return undefined;
}

/**
 * Spec 002 §8 "Error page": a localized apology chosen by error type, else the catch-all, with a
 * link home; the heading shows "sorry" plus the code. The React root and the AMP renderer both
 * draw it.
 */
export function ErrorPage({
  status,
  type,
  homeHref,
}: {
  status: number;
  type: string | undefined;
  homeHref: string;
}) {
  const { t, strings } = useTranslation("common");
  const { Link } = usePrimitives();
  const message = t(errorMessageKey(status, type, (key) => strings.exists(key, "common")));
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">{t("error.sorry", { code: status })}</p>
      <h1 id="error-title">{status === 404 ? t("error.notfoundTitle") : t("error.title")}</h1>
      <p className="muted">{message}</p>
      <Link className="button" href={homeHref}>
        {t("error.home")}
      </Link>
    </section>
  );
}
