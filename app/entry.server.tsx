import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { NonceContext } from "./nonce";
import { siteStylesheets } from "./root";
import { stylesheetTexts } from "./stylesheet-texts.server";
import { StylesheetTextsContext, stylesheetHrefs } from "./stylesheets";

const streamTimeoutMs = 5_000;

/**
 * Server errors are logged as Remix logs them, except a request Remix itself answers with a 4xx
 * (a POST to a page that has no form: 405; no route: 404): an answer, not a fault, whose stack
 * trace only cost CPU under hostile traffic (decision 028). Nor is a request the visitor gave up.
 */
export function handleError(error: unknown, { request }: { request: Request }): void {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // Remix wraps an error it throws itself in an error response with the original inside.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  console.error(inner ?? error);
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // /amp/… (amp/request.ts): the same route and loader data, drawn by the AMP renderer the worker
  // hands over in the load context.
  if (loadContext.edge.isAmp) return loadContext.renderAmpPage(remixContext, loadContext, request);

  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), streamTimeoutMs);
  const nonce = loadContext.cspNonce;
  const inlineStylesheets = await documentStylesheetTexts(
    loadContext.cloudflare.env.ASSETS,
    documentStylesheetHrefs(remixContext),
  );
  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <StylesheetTextsContext.Provider value={inlineStylesheets}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeoutMs} nonce={nonce} />
      </StylesheetTextsContext.Provider>
    </NonceContext.Provider>,
    {
      nonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) console.error(error);
        responseStatusCode = 500;
      },
    },
  );
  body.allReady.then(() => clearTimeout(timeout));

  // Bots and social-card scrapers get the whole document at once.
  if (loadContext.edge.isBot) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

/**
 * The stylesheets the document inlines (app/stylesheets.tsx): the site's, then those of the routes
 * on the page; a route under the boundary that draws an error is not on it.
 */
function documentStylesheetHrefs(remix: EntryContext): string[] {
  const { matches, errors } = remix.staticHandlerContext;
  const failed = errors ? matches.findIndex((match) => match.route.id in errors) : -1;
  const onPage = failed < 0 ? matches : matches.slice(0, failed + 1);
  const routeHrefs = stylesheetHrefs(
    remix.routeModules,
    onPage.map((match) => match.route.id),
  );
  return [...new Set([...siteStylesheets, ...routeHrefs])];
}

/** The texts to inline by address; none when unreadable: the stylesheets are imported instead. */
async function documentStylesheetTexts(
  assets: Fetcher,
  hrefs: readonly string[],
): Promise<ReadonlyMap<string, string>> {
  try {
    const texts = await stylesheetTexts(assets, hrefs);
    return new Map(hrefs.map((href, index) => [href, texts[index] ?? ""]));
  } catch (error) {
    console.error(error);
    return new Map();
  }
}
