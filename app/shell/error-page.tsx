import { usePrimitives } from "#app/ui/primitives.tsx";
import { useTranslation } from "./strings";
// One chunk with the rest of every page's shell (app/shell/every-page.ts, decision 027).
import "#app/shell/every-page.ts";

/**
 * The apology for an error: a 404's own when its page names one (a concert's 'concert unavailable'),
 * else the not-found one for a 404, else the type's, else the catch-all.
 */
export function errorMessageKey(status: number, type: string | undefined, exists: (key: string) => boolean) {
  if (status === 404 && type && type !== "notfound" && exists(`error.${type}`)) return `error.${type}`;
  const key = status === 404 ? "error.notfound" : `error.${type ?? "catchall"}`;
  return exists(key) ? key : "error.catchall";
}

/**
 * The heading: a type's own when it has one (removed content's "Not Found", spec 001 §8), else
 * the not-found one for a 404, else "Something went wrong :(" (spec 000 §8).
 */
export function errorTitleKey(status: number, type: string | undefined, exists: (key: string) => boolean) {
  if (type && exists(`error.${type}Title`)) return `error.${type}Title`;
  return status === 404 ? "error.notfoundTitle" : "error.title";
}

/** The error type a page's error answer carries (`throwSiteError` in app/shell/http.server.ts). */
export function errorTypeOf(data: unknown): string | undefined {
  if (data && typeof data === "object" && "type" in data && typeof data.type === "string") return data.type;
  return undefined;
}

/**
 * The sign-in address of an unauthorized error page, back to `returnPath` once signed in; the
 * error area's own address is no page to come back to.
 */
export function errorSignInHref(loginPath: string, returnPath: string | undefined): string {
  if (!returnPath || /^(\/[a-z]{2}(-[a-z]{2})?)?\/error\//.test(returnPath)) return loginPath;
  return `${loginPath}?${new URLSearchParams({ redirect: returnPath })}`;
}

/**
 * Spec 002 §8 "Error page": a localized apology chosen by error type, else the catch-all, with a
 * link home; the heading shows "sorry" plus the code. Spec 000 §8's texts: a failure (not a
 * missing page) also says that an ad blocker may be the cause, and an unauthorized one offers
 * sign-in. The React root and the AMP renderer both draw it.
 */
export function ErrorPage({
  status,
  type,
  homeHref,
  signInHref,
}: {
  status: number;
  type: string | undefined;
  homeHref: string;
  /** Where an unauthorized page's sign-in button goes (`errorSignInHref`). */
  signInHref: string;
}) {
  const { t, strings } = useTranslation("common");
  const { Link } = usePrimitives();
  const exists = (key: string) => strings.exists(key, "common");
  const unauthorized = status === 401 || type === "unauthorized";
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">{t("error.sorry", { code: status })}</p>
      <h1 id="error-title">{t(errorTitleKey(status, type, exists))}</h1>
      <p className="muted">{t(errorMessageKey(status, type, exists))}</p>
      {status === 404 ? null : <p className="muted error-page__adblock">{t("error.adblock")}</p>}
      <div className="error-page__actions">
        {unauthorized ? (
          <Link className="button" href={signInHref}>
            {t("account.signIn")}
          </Link>
        ) : null}
        <Link className="button" href={homeHref}>
          {t("error.home")}
        </Link>
      </div>
    </section>
  );
}
