import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { renderAmpPage } from "../amp/render";
import { NonceContext } from "./nonce";
import { siteStylesheets } from "./root";
import { stylesheetTexts } from "./stylesheet-texts.server";
import { StylesheetTextsContext } from "./stylesheets";

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
  const inlineStylesheets = await siteStylesheetTexts(loadContext.cloudflare.env.ASSETS);
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

/** The site's stylesheets to inline (app/stylesheets.tsx); none when unreadable: they are imported instead. */
async function siteStylesheetTexts(assets: Fetcher): Promise<ReadonlyMap<string, string>> {
  try {
    const texts = await stylesheetTexts(assets, siteStylesheets);
    return new Map(siteStylesheets.map((href, index) => [href, texts[index] ?? ""]));
  } catch (error) {
    console.error(error);
    return new Map();
  }
}
