import * as v from "valibot";
import {
  type Answer,
  answerHeadersOf,
  type CacheTier,
  createCacheTiers,
  createInFlight,
  defaultCache,
  planStorage,
  type ServicesProxy,
} from "#edge/services/index.ts";
import { accountCookieNames, webProviderCookieName } from "#rules/account.ts";
import { featureConfigServicePath } from "#rules/addresses.ts";
import { cookieNames, parseCookieHeader } from "#rules/cookies.ts";
import { documentCacheControlHeader } from "#rules/document-cache-control.ts";
import { localDateOf, visitorPlaceOf } from "#rules/events.ts";
import { evaluateFeatures, type FeaturePlatform, loadFeatureConfig } from "#rules/feature-flags.ts";
import { offerDeviceOf } from "#rules/offers.ts";
import type { RequestContext } from "./request-context";

/**
 * The edge's cache of rendered documents for anonymous visitors
 * (docs/decisions/055-html-cache.md). The services proxy's tiers (a bounded memory tier in front
 * of the Cache API) and its in-flight map, keyed by everything that can change a document:
 *
 * - build and configuration, scheme and host, path and the whole query (every parameter counts: pages read many);
 * - the resolved language, the country, in the app or not, bot or not, the platform the user
 *   agent names (store order, app links), and the set of feature flags on for the visitor;
 * - what a few pages read of the visitor besides (`pageVariantOf`): the concert list's cell and
 *   date, the offer's smartphone or not.
 *
 * What the key cannot cover bypasses: any method but GET and HEAD, Remix's `.data` requests, and a
 * request carrying a session, sign-in, provider or install-id cookie. A stored document holds
 * nothing of one visitor: the web id is read by the browser from its cookie, cookies are added to
 * each answer after the lookup, and the CSP nonce is replaced per answer (`withNonce`).
 *
 * Only 200 answers without Set-Cookie, `private`, `no-store` or `no-cache` are stored, for the
 * page's own lifetime (`Document-Cache-Control` when the page has one, else Cache-Control, else
 * `documentTtlSeconds`) capped by the freshness of every
 * services answer its loaders used; a page that made a call the caches do not keep is not stored.
 * Past its lifetime a copy answers at once for `documentStaleSeconds` while one render refreshes
 * it through waitUntil. Concurrent misses of one key share one render.
 */

/** Lifetime of a page that used no services data (its content is the build's). */
export const documentTtlSeconds = 300;
/** How long past its lifetime a copy still answers while a refresh renders (stale-while-revalidate). */
export const documentStaleSeconds = 3600;
/** Memory tier bounds: documents are larger than services answers; the isolate has 128 MB. */
const memoryLimits = { maxEntries: 500, maxBytes: 16 * 1024 * 1024, maxEntryBytes: 2 * 1024 * 1024 };
/** How long a request that joined a render waits before rendering on its own. */
const renderDeadlineMs = 15_000;

/** What `x-cache` says. */
export type DocumentSource = "HIT" | "MISS" | "STALE" | "COALESCED" | "BYPASS";

/** Cookies whose holder's document the key cannot cover: signed in, signing in, or an app install. */
const visitorCookies: readonly string[] = [
  accountCookieNames.session,
  accountCookieNames.device,
  webProviderCookieName,
  cookieNames.inid,
];

/** Why a page request may not share a cached document, or undefined when it may. */
export function bypassReasonOf(request: Request): string | undefined {
  if (request.method !== "GET" && request.method !== "HEAD") return "method";
  if (new URL(request.url).pathname.endsWith(".data")) return "data request";
  const cookies = parseCookieHeader(request.headers.get("cookie"));
  const held = visitorCookies.find((name) => cookies.has(name));
  return held === undefined ? undefined : `cookie ${held}`;
}

/** What the edge knows of a visitor besides the request context, as `pageVariantOf` reads it. */
export type VisitorInputs = {
  /** `request.cf` (undefined for AMP pages, which depend on their URL only). */
  cf: { latitude?: unknown; longitude?: unknown; timezone?: unknown } | undefined;
  userAgent: string | null;
  now: number;
};

/**
 * What a page reads of the visitor beyond the key's common parts, by the path's first segment. The
 * loaders read the same functions, so the key and the render agree.
 */
const pageVariants = new Map<string, (visitor: VisitorInputs) => string>([
  // The list is sorted and grouped from the centre of the edge's cell of the visitor, and "today"
  // (the date filters, the custom range's minimum) is the date in their time zone.
  [
    "concerts",
    ({ cf, now }) => {
      const place = visitorPlaceOf(cf);
      return `${place.cell ?? "nowhere"}.${localDateOf(now, place.timeZone)}`;
    },
  ],
  // An offer only for smartphones tells a tablet to open it on a phone (the platform is in the key).
  ["campaign", ({ userAgent }) => (offerDeviceOf(userAgent).smartphone ? "smartphone" : "other")],
]);

/** The key's part for what this page reads of the visitor beyond the common parts; "-" for most. */
export function pageVariantOf(edge: RequestContext, visitor: VisitorInputs): string {
  return pageVariants.get(edge.path.segments[0] ?? "")?.(visitor) ?? "-";
}

/** The document's key: every input of the render that is not in the stored document's answer. */
export function documentKey(input: {
  /** The build and the configuration it runs with. */
  version: string;
  url: URL;
  edge: RequestContext;
  platform: FeaturePlatform;
  flags: readonly string[];
  /** `pageVariantOf`. */
  variant: string;
}): string {
  const { url, edge } = input;
  const flags = input.flags.length === 0 ? "-" : input.flags.map(encodeURIComponent).join(",");
  return [
    "",
    encodeURIComponent(input.version),
    url.protocol.replace(":", ""),
    url.host,
    edge.lang,
    edge.country,
    edge.inApp ? "app" : "web",
    edge.isBot ? "bot" : "person",
    input.platform,
    flags,
    input.variant,
  ]
    .join("/")
    .concat(url.pathname, url.search);
}

/** The feature flags on for this visitor (rules/feature-flags.ts), by name: a part of the key. */
export async function flagsOf(
  services: ServicesProxy,
  edge: RequestContext,
  environment: Parameters<typeof evaluateFeatures>[1]["environment"],
  platform: FeaturePlatform,
): Promise<string[]> {
  const { config } = await loadFeatureConfig({
    fetchConfig: () => services.getJson(featureConfigServicePath(), v.unknown()),
  });
  const features = evaluateFeatures(config, {
    environment,
    country: edge.country,
    inid: edge.inid,
    platform,
    loggedin: false,
    userId: edge.inApp ? edge.inid : edge.webId,
  });
  return Object.keys(features).sort();
}

/**
 * The services proxy as one render sees it: each answer its loaders use reports how long it stays
 * fresh, and a call the caches do not keep (`handle`: a visitor's own call) counts as 0.
 */
export function recordingFreshness(services: ServicesProxy): {
  services: ServicesProxy;
  /** The shortest freshness reported, in ms; undefined when the render used no services data. */
  freshForMs(): number | undefined;
} {
  let shortest: number | undefined;
  const report = (ms: number) => {
    shortest = shortest === undefined ? ms : Math.min(shortest, ms);
  };
  return {
    services: {
      handle(request, context) {
        report(0);
        return services.handle(request, context);
      },
      getJson(path, schema, options = {}) {
        return services.getJson(path, schema, {
          ...options,
          freshFor: (ms) => {
            report(ms);
            options.freshFor?.(ms);
          },
        });
      },
    },
    freshForMs: () => shortest,
  };
}

/** A render's answer and how long the data it used stays fresh. */
export type RenderedDocument = { response: Response; freshForMs: number | undefined };

/** What the cache answers one request: the document's bytes and where they came from. */
export type ServedDocument = {
  answer: Answer;
  source: Exclude<DocumentSource, "BYPASS">;
  tier?: CacheTier;
  renderMs?: number;
};

/** Whether a rendered document may be stored, and its lifetime and stale window in seconds. */
export function planDocument(response: Pick<Response, "status" | "headers">, freshForMs: number | undefined) {
  // `Vary: User-Agent` (the track and apps pages' store order) is covered: the key holds the
  // platform, the one thing a page reads from the agent.
  const headers = new Headers(response.headers);
  const vary = (headers.get("vary") ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "" && name.toLowerCase() !== "user-agent");
  if (vary.length > 0) headers.set("vary", vary.join(", "));
  else headers.delete("vary");
  const ownControl = headers.get(documentCacheControlHeader);
  if (ownControl !== null) headers.set("cache-control", ownControl);
  const plan = planStorage({
    status: response.status,
    headers,
    defaultTtlSeconds: documentTtlSeconds,
    staleIfErrorSeconds: documentStaleSeconds,
  });
  if (!plan.store) return plan;
  const ttlSeconds = Math.min(plan.ttlSeconds, Math.floor((freshForMs ?? Number.POSITIVE_INFINITY) / 1000));
  if (ttlSeconds <= 0) return { store: false as const, reason: "data not fresh" };
  return { ...plan, ttlSeconds };
}

export type DocumentCache = ReturnType<typeof createDocumentCache>;

export function createDocumentCache(
  options: { cache?: Cache | null; now?: () => number; keyBase?: string } = {},
) {
  const now = options.now ?? Date.now;
  const tiers = createCacheTiers({
    memory: memoryLimits,
    cache: options.cache === undefined ? defaultCache() : options.cache,
    keyBase: options.keyBase ?? "https://documents.internal",
    now,
  });
  const inFlight = createInFlight<ServedDocument>((served) =>
    served.source === "MISS" ? { ...served, source: "COALESCED", renderMs: undefined } : served,
  );
  const refreshing = new Set<string>();
  let calls = 0;

  /** Renders, reads the whole document, and stores it when it may be shared. */
  async function renderAndStore(
    key: string,
    render: () => Promise<RenderedDocument>,
    waitUntil: (promise: Promise<unknown>) => void,
  ): Promise<{ served: ServedDocument; stored: boolean }> {
    const started = Date.now();
    const { response, freshForMs } = await render();
    const body = new Uint8Array(await response.arrayBuffer());
    const sent = new Headers(response.headers);
    sent.delete(documentCacheControlHeader);
    const answer: Answer = { status: response.status, headers: answerHeadersOf(sent), body };
    const plan = planDocument(response, freshForMs);
    if (plan.store) {
      const storedAt = now();
      const freshUntil = storedAt + plan.ttlSeconds * 1000;
      const copy = { answer, storedAt, freshUntil, staleUntil: freshUntil + plan.staleSeconds * 1000 };
      await tiers.store(key, copy, waitUntil);
    }
    return { served: { answer, source: "MISS", renderMs: Date.now() - started }, stored: plan.store };
  }

  return {
    /**
     * The document under `key`: a fresh copy, else one render shared by the requests that ask at
     * the same time; a copy past its lifetime answers at once while one render refreshes it.
     */
    async serve(input: {
      key: string;
      render: () => Promise<RenderedDocument>;
      waitUntil: (promise: Promise<unknown>) => void;
      signal?: AbortSignal;
    }): Promise<ServedDocument> {
      const { key, render, waitUntil } = input;
      const inMemory = tiers.freshInMemory(key);
      if (inMemory) return { answer: inMemory.answer, source: "HIT", tier: "memory" };
      calls += 1;
      const call = { key, identity: String(calls), signal: input.signal };
      return inFlight.join(call, renderDeadlineMs, async () => {
        const held = await tiers.newest(key);
        if (held && now() < held.copy.freshUntil) {
          if (held.tier === "cacheapi") tiers.keepInMemory(key, held.copy);
          return {
            outcome: { answer: held.copy.answer, source: "HIT", tier: held.tier },
            shareable: true,
            identity: "",
          };
        }
        if (held) {
          if (!refreshing.has(key)) {
            refreshing.add(key);
            const refresh = renderAndStore(key, render, waitUntil)
              .catch((error: unknown) => console.error("document refresh failed", error))
              .finally(() => refreshing.delete(key));
            waitUntil(refresh);
          }
          return {
            outcome: { answer: held.copy.answer, source: "STALE", tier: held.tier },
            shareable: true,
            identity: "",
          };
        }
        const { served, stored } = await renderAndStore(key, render, waitUntil);
        return { outcome: served, shareable: stored, identity: call.identity };
      });
    },
  };
}

/** How every nonce attribute of a rendered document starts (React writes it so, decision 028). */
const nonceAttribute = new TextEncoder().encode(' nonce="');

/** Where a stored copy's nonce values are, found once per copy (its body) and kept while it is. */
const nonceValues = new WeakMap<Uint8Array, { offsets: readonly number[]; length: number } | null>();

/**
 * The start of each nonce attribute's value in `body`, all of one length; null when they differ
 * (the copy then goes through the rewriter). Markup cannot hold the pattern elsewhere: React
 * escapes `"` in text and attribute values, and inline scripts' JSON writes it as `\"`.
 */
function nonceValuesOf(body: Uint8Array): { offsets: readonly number[]; length: number } | null {
  const offsets: number[] = [];
  let length: number | undefined;
  const first = nonceAttribute[0] ?? 0;
  for (let at = body.indexOf(first); at !== -1; at = body.indexOf(first, at + 1)) {
    let matches = true;
    for (let index = 1; index < nonceAttribute.length && matches; index += 1) {
      matches = body[at + index] === nonceAttribute[index];
    }
    if (!matches) continue;
    const start = at + nonceAttribute.length;
    const end = body.indexOf(0x22, start);
    if (end === -1 || (length !== undefined && end - start !== length)) return null;
    length = end - start;
    offsets.push(start);
    at = end;
  }
  return { offsets, length: length ?? 0 };
}

/**
 * A stored document's bytes with `nonce` written over every nonce attribute's value: a copy of
 * the body and a few writes, where a rewriter parses the whole document on every answer (the
 * warm path's largest cost: decision 027, part 3). Undefined when the values are not all the nonce's length.
 */
export function documentWithNonce(
  body: Uint8Array<ArrayBuffer>,
  nonce: string,
): Uint8Array<ArrayBuffer> | undefined {
  let values = nonceValues.get(body);
  if (values === undefined) {
    values = nonceValuesOf(body);
    nonceValues.set(body, values);
  }
  const bytes = new TextEncoder().encode(nonce);
  if (values === null || (values.offsets.length > 0 && bytes.length !== values.length)) return undefined;
  const copy = body.slice();
  for (const offset of values.offsets) copy.set(bytes, offset);
  return copy;
}

/**
 * A stored document with this answer's nonce in every `nonce` attribute (the only place a nonce is
 * in a document, decision 028), so no two answers share one. For a copy whose nonce values
 * `documentWithNonce` cannot place.
 */
export function withNonce(response: Response, nonce: string): Response {
  return new HTMLRewriter()
    .on("[nonce]", {
      element(element) {
        element.setAttribute("nonce", nonce);
      },
    })
    .transform(response);
}
