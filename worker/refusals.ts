import { serverStrings } from "#app/shell/i18n.server.ts";
import { withSecurityHeaders } from "#edge/security-headers.ts";
import { loadLanguages } from "#locales/index.ts";
import { escapeHtml } from "#rules/html.ts";
import { readBody } from "#rules/http-body.ts";
import { chooseLanguage, defaultLanguageKey, languageOf, localizedPath } from "#rules/languages.ts";

/**
 * Cheap refusals (decision 028): what the worker entry refuses before any routing or rendering, by
 * looking at sizes only. A request over a limit costs a few comparisons, not a render; its answer
 * is a small localized page that echoes nothing of the request.
 */
export const requestLimits = {
  /** Path and query as sent (percent-encoded). The site's longest real URLs are a few hundred. */
  maxUrlLength: 4096,
  /** Path segments; the deepest page has 6. */
  maxSegments: 32,
  /** All header names and values together (Cloudflare's own ceiling is 32 KiB). */
  maxHeaderBytes: 16 * 1024,
  /**
   * A page's form body, declared or not (a chunked body is counted as it streams); `/services`
   * has its own limit (the proxy's, for recognition signatures).
   */
  maxPageBodyBytes: 64 * 1024,
};

/** `/services` and the campaign data are JSON calls: the proxy refuses their bodies and paths itself. */
const servicePrefixes = ["/services/", "/campaign/data/"];

/**
 * What a page answers: reading it, and its forms (every action reads POST). Remix would call a
 * route's action for a PUT too, and for a route without one throw and log a stack trace before its
 * 405: a cost the fuzz measured, refused here first.
 */
const pageMethods = ["GET", "HEAD", "POST"];

/** The status a request is refused with, if any, by what it declares (its body is not read here). */
export function refusalStatusOf(request: Request): 400 | 405 | 414 | 431 | undefined {
  const url = new URL(request.url);
  const target = url.pathname + url.search;
  if (target.length > requestLimits.maxUrlLength) return 414;
  if (url.pathname.split("/").length - 1 > requestLimits.maxSegments) return 414;
  let headerBytes = 0;
  for (const [name, value] of request.headers) headerBytes += name.length + value.length;
  if (headerBytes > requestLimits.maxHeaderBytes) return 431;
  const service = servicePrefixes.some((prefix) => url.pathname.startsWith(prefix));
  if (service) return undefined;
  if (!pageMethods.includes(request.method)) return 405;
  if (!isWellFormedPath(url.pathname)) return 400;
  return undefined;
}

/**
 * A page request with its body read whole before any page sees it, at most `maxPageBodyBytes`
 * (the proxy's `readBody`: refused unread when the declared length is over, else counted as it
 * streams, so a body without a Content-Length is bounded too): 413 past the limit. Page bodies
 * are small forms, so holding one is cheap.
 */
export async function boundedPageRequest(request: Request): Promise<Request | 413> {
  if (!request.body) return request;
  const body = await readBody(request, requestLimits.maxPageBodyBytes);
  if (body === "too large") return 413;
  return new Request(request, { body });
}

/**
 * A page path Remix can route: every segment decodes, and none holds a backslash or a control
 * character (`/%5c` made Remix's `encodeLocation` throw: a bare 500).
 */
function isWellFormedPath(pathname: string): boolean {
  try {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
    return !/[\\\u0000-\u001f\u007f]/.test(decodeURIComponent(pathname));
  } catch {
    return false;
  }
}

/**
 * The refusal page: status, the localized apology, a link home, with the security headers of a page.
 * Nothing of the request is echoed.
 */
export async function refusalResponse(request: Request, status: number): Promise<Response> {
  const url = new URL(request.url);
  // Only bounded parts of the request pick the language: the first segment and the browser's list.
  const { key } = chooseLanguage({
    prefix: url.pathname.slice(1, 17).split("/")[0],
    acceptLanguage: request.headers.get("accept-language")?.slice(0, 256),
  });
  await loadLanguages([key, defaultLanguageKey]);
  const { t } = serverStrings(key);
  const { locale, dir } = languageOf(key);
  const message = t(status === 413 || status === 431 ? "error.toolarge" : "error.invalidparam");
  const html = `<!doctype html><html lang="${key}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><style>${refusalStyle}</style><title>${escapeHtml(t("error.title"))}</title></head><body><main><h1>${escapeHtml(t("error.sorry", { code: status }))}</h1><p>${escapeHtml(message)}</p><p><a href="${localizedPath(key, "/")}">${escapeHtml(t("error.home"))}</a></p></main></body></html>`;
  const page = new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Language": locale,
      "Cache-Control": "no-store",
      ...(status === 405 ? { Allow: pageMethods.join(", ") } : {}),
    },
  });
  return withSecurityHeaders(page, { nonce: undefined, https: url.protocol === "https:", amp: false });
}

/** The site's system font and text colours (app/styles/site.css), light and dark, without its stylesheet. */
const refusalStyle =
  ":root{color-scheme:light dark;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#10131c;background:#f7f8fc}" +
  "@media (prefers-color-scheme:dark){:root{color:#eef0f6;background:#0c0e14}}" +
  "main{max-width:40rem;margin:4rem auto;padding:0 1rem;text-align:center;line-height:1.5}a{color:inherit}";
