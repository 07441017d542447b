/**
 * The JavaScript a first visit really downloads, beside the route manifest's figure
 * (bench/bytes.ts). Why the two disagree by 40–50 KB (measured 2026-11-28 on fa3cc2f, every bench
 * page: manifest 101.5–112.7 KB, downloaded 142.2–159.4 KB):
 *
 * - ≈ 35–39 KB, 17–20 files (on fa3cc2f): the browser runtime. `RuntimeProvider` (app/shell/runtime.tsx)
 *   imports `app/shell/browser/runtime.ts` after hydration (beacons' page view, bridge, storage, auth, in-app
 *   flags); its chunk (`runtime-*.js`, 11 KB: runtime, tagging, bridge) and the shared chunks it
 *   imports are a dynamic import, which the manifest does not list. Since decision 027 part 4
 *   (94ebbec) the runtime no longer reaches oauth4webapi, the match service, the offers schemas or
 *   the country list; since decision 027 part 5 the bridge, its schemas and tag tracking load only
 *   inside the app: ≈ 25–27 KB in 12–16 files on most pages (runtime 8 KB, valibot 4 KB,
 *   environment, storage, account, cloud auth, request, feature flags…). The track and offer pages add the
 *   streaming connection section (lazy, once the runtime is there, with the connect flow) and the
 *   overlay; the offer page its offers schemas and country list.
 * - ≈ 5–8 KB: the responses' headers (≈ 230 B a file, 21–35 files the manifest lists): the manifest
 *   counts bodies only. The bodies themselves match its level-9 gzip within 0.6 KB.
 * - Nothing else: no route's module is prefetched (no `<Link prefetch>` in the site), no service
 *   worker is registered, and the signature worker is fetched only when recognition starts.
 */
import { type Browser, chromium } from "playwright-core";
import { assetFileOf } from "#scripts/asset-urls.mjs";
import { findChromium } from "#scripts/chromium.mjs";
import { chromeFlags } from "./lighthouse";

/** One script the browser fetched, as its own network record counts it. */
export type DownloadedScript = {
  /** Path on the site (`/build/…`), or the full address of another origin's script. */
  url: string;
  /** Bytes on the wire, headers included (CDP `encodedDataLength`), as Lighthouse's transfer size. */
  transferBytes: number;
  /** The body alone as it came over the wire (the rest of `transferBytes` is the response's headers). */
  bodyBytes: number;
  /** The response's `content-encoding` ("" when the server sent it uncompressed). */
  encoding: string;
  /** Chromium's resource type: `Script`, or `Other` for a worker's script and a `modulepreload`. */
  type: string;
  /** How it came to be fetched (CDP `initiator.type`: parser, script, preload, other). */
  initiator: string;
  /** Fetched before the load event (`true`) or after it (a lazy chunk, a worker). */
  beforeLoad: boolean;
};

export type DownloadedJs = {
  url: string;
  scripts: DownloadedScript[];
  transferBytes: number;
};

/** How long a page is left after its load event for what it fetches on its own (lazy chunks, workers). */
const settleAfterLoadMs = 3_000;

/**
 * A first visit as a person makes it: a fresh Chromium context (empty cache), mobile-sized like
 * Lighthouse's default, the page left until its network has been quiet a while after load. Every
 * JavaScript response is recorded from Chromium's own Network events (CDP), as Lighthouse's
 * `network-requests` audit reads them, with its transfer size.
 */
export async function measureDownloadedJs(
  browser: Browser,
  url: string,
  extraHeaders?: Record<string, string>,
): Promise<DownloadedJs> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    ...(extraHeaders ? { extraHTTPHeaders: extraHeaders } : {}),
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const origin = new URL(url).origin;
    type Pending = Omit<DownloadedScript, "transferBytes"> & { mime: string };
    const pending = new Map<string, Pending>();
    const scripts: DownloadedScript[] = [];
    let loaded = false;
    cdp.on("Network.requestWillBeSent", (event) => {
      const address = event.request.url;
      pending.set(event.requestId, {
        url: address.startsWith(origin) ? assetFileOf(address.slice(origin.length)) : address,
        type: event.type ?? "Other",
        initiator: event.initiator.type,
        beforeLoad: !loaded,
        encoding: "",
        bodyBytes: 0,
        mime: "",
      });
    });
    cdp.on("Network.responseReceived", (event) => {
      const request = pending.get(event.requestId);
      if (!request) return;
      request.mime = event.response.mimeType;
      const headers = Object.entries(event.response.headers);
      request.encoding = String(
        headers.find(([name]) => name.toLowerCase() === "content-encoding")?.[1] ?? "",
      );
    });
    cdp.on("Network.dataReceived", (event) => {
      const request = pending.get(event.requestId);
      if (request) request.bodyBytes += event.encodedDataLength;
    });
    cdp.on("Network.loadingFinished", (event) => {
      const request = pending.get(event.requestId);
      if (!request) return;
      pending.delete(event.requestId);
      if (!/javascript|ecmascript/.test(request.mime)) return;
      const { mime: _mime, ...script } = request;
      scripts.push({ ...script, transferBytes: event.encodedDataLength });
    });
    await page.goto(url, { waitUntil: "load" });
    loaded = true;
    await page.waitForLoadState("networkidle");
    // What the page starts on its own after it is idle (an idle callback's import) still counts.
    await page.waitForTimeout(settleAfterLoadMs);
    await page.waitForLoadState("networkidle");
    return { url, scripts, transferBytes: scripts.reduce((sum, script) => sum + script.transferBytes, 0) };
  } finally {
    await context.close();
  }
}

export async function launchBenchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath)
    throw new Error("Chromium is missing: apt-get install -y chromium, or set CHROME_PATH");
  return chromium.launch({
    executablePath,
    args: chromeFlags.filter((flag) => !flag.startsWith("--headless")),
  });
}

export type DownloadedVsManifest = {
  /** The scripts the manifest lists for the page, as downloaded: bodies and their responses' headers. */
  listed: { files: number; bodyBytes: number; headerBytes: number };
  /** Scripts the manifest does not list (fetched after hydration: dynamic imports, workers), largest first. */
  unlisted: DownloadedScript[];
  unlistedBytes: number;
};

/** Splits a first visit's downloaded scripts into those the manifest counts and the rest. */
export function compareWithManifest(
  downloaded: DownloadedJs,
  manifestScripts: readonly string[],
): DownloadedVsManifest {
  const isListed = (script: DownloadedScript) => manifestScripts.includes(script.url);
  const listed = downloaded.scripts.filter(isListed);
  const unlisted = downloaded.scripts
    .filter((script) => !isListed(script))
    .sort((a, b) => b.transferBytes - a.transferBytes);
  const bodyBytes = listed.reduce((sum, script) => sum + script.bodyBytes, 0);
  return {
    listed: {
      files: listed.length,
      bodyBytes,
      headerBytes: listed.reduce((sum, script) => sum + script.transferBytes, 0) - bodyBytes,
    },
    unlisted,
    unlistedBytes: unlisted.reduce((sum, script) => sum + script.transferBytes, 0),
  };
}
