import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { renderAmpPage } from "../amp/render";
import { NonceContext } from "./nonce";

const streamTimeoutMs = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // /amp/… (amp/request.ts): the same route and loader data, drawn by the AMP renderer.
  if (loadContext.edge.isAmp) return renderAmpPage(remixContext, loadContext, request);

  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), streamTimeoutMs);
  const nonce = loadContext.cspNonce;
  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeoutMs} nonce={nonce} />
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
