import type { AppLoadContext } from "@remix-run/cloudflare";
import { requestMeta } from "../../app/data/meta.server";
import type { PageMeta } from "../../app/meta";
import type { SiteErrorType } from "../../edge/errors";
import { localizedPath } from "../../edge/path";
import type { AmpPageContent } from "../document";
import type { Translate } from "../strings";

/**
 * The error page of the site (app/components/error-page.tsx) as an AMP page: "sorry" and the code,
 * the apology for the error type (the not-found one for a 404), and the way home.
 */
export function errorAmpContent({
  context,
  request,
  status,
  type,
  t,
}: {
  context: Pick<AppLoadContext, "edge">;
  request: Request;
  status: number;
  type: SiteErrorType | undefined;
  t: Translate;
}): AmpPageContent {
  const notFound = status === 404;
  const key = notFound ? "common:error.notfound" : `common:error.${type ?? "catchall"}`;
  let message: string;
  try {
    message = t(key);
  } catch {
    message = t("common:error.catchall");
  }
  const title = notFound ? t("common:error.notfoundTitle") : t("common:error.title");
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("common:pageTitle.error"),
    description: message,
    type: "website",
  };
  return {
    meta,
    // An error answer is no page to index.
    extraMeta: [{ name: "robots", content: "noindex" }],
    stylesheets: [],
    body: (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-page__code">{t("common:error.sorry", { code: status })}</p>
        <h1 id="error-title">{title}</h1>
        <p className="muted">{message}</p>
        <a className="button" href={localizedPath(context.edge.lang, "/")}>
          {t("common:error.home")}
        </a>
      </section>
    ),
  };
}
