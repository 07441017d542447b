import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceContext } from "#app/shell/nonce.ts";
import { stylesheetTexts } from "#app/shell/stylesheet-texts.server.ts";
import { StylesheetTextsContext, stylesheetHrefs } from "#app/shell/stylesheets.tsx";
import { scriptJsonText } from "#rules/script-json.ts";
import { siteStylesheets } from "./root";

/** How long Remix waits for a promise in loader data before it rejects it (none is left unawaited). */
export const streamTimeout = 5_000;

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

  const nonce = loadContext.cspNonce;
  const inlineStylesheets = await documentStylesheetTexts(
    loadContext.cloudflare.env.ASSETS,
    documentStylesheetHrefs(remixContext),
  );
  // Every document is rendered whole (decision 035): nothing on the server suspends, the edge
  // stores documents whole, and a string render costs a fraction of a streamed one. Remix would
  // stream the loader data the client router decodes in a Suspense boundary after </html>
  // (invalid HTML, patched in place by React's $RC script); it is read to its end here instead and
  // handed over in one script at the end of the body.
  const handoff = await handoffText(remixContext);
  const html = renderToString(
    <NonceContext.Provider value={nonce}>
      <StylesheetTextsContext.Provider value={inlineStylesheets}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </StylesheetTextsContext.Provider>
    </NonceContext.Provider>,
  );
  const withHandoff =
    handoff === undefined || !remixContext.renderMeta?.didRenderScripts
      ? html
      : beforeBodyEnd(html, handoffScript(handoff, nonce));

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(`<!DOCTYPE html>${withHandoff}`, {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}

/**
 * The loader data as Remix encodes it for the client router (single fetch's turbo-stream), read
 * whole; the context then holds no stream, so `<RemixServer>` renders no boundary to stream it.
 */
async function handoffText(remix: EntryContext): Promise<string | undefined> {
  const stream = remix.serverHandoffStream;
  if (!stream) return undefined;
  remix.serverHandoffStream = undefined;
  return new Response(stream).text();
}

/** What Remix's streamed scripts do, in one: the client router's stream gets the data, then closes. */
function handoffScript(handoff: string, nonce: string): string {
  const stream = "window.__remixContext.streamController";
  return `<script nonce="${nonce}">${stream}.enqueue(${scriptJsonText(handoff)});${stream}.close();</script>`;
}

function beforeBodyEnd(html: string, insert: string): string {
  const end = html.lastIndexOf("</body>");
  return end < 0 ? html + insert : html.slice(0, end) + insert + html.slice(end);
}

/**
 * The stylesheets the document inlines (app/shell/stylesheets.tsx): the site's, then those of the routes
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
