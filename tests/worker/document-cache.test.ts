import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, test } from "vitest";
import { createDocumentCache, documentStaleSeconds } from "#edge/document-cache.ts";
import { documentCacheControlHeader } from "#rules/document-cache-control.ts";
import { rolloutBucket } from "#rules/feature-flags.ts";
import { agent, browser, signIn } from "./browser-jar";

// The edge's document cache (decision 055, edge/document-cache.ts) through the built worker: what one
// visitor's request may share with another's, and what never. Every test asks for its own query
// (`?t=…`), so each starts from a cold key whatever ran before it.

const site = "https://tunewave.test";
const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const iphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
let keys = 0;

/** A query no other request has asked for: a cold key. */
function fresh(path = "/"): string {
  keys += 1;
  return `${path}${path.includes("?") ? "&" : "?"}t=${keys}`;
}

type Visit = {
  cookie?: string;
  country?: string;
  userAgent?: string;
  acceptLanguage?: string;
  method?: string;
  /** More of `request.cf`: where the edge located the visitor. */
  cf?: { latitude?: string; longitude?: string; timezone?: string };
};

async function visit(path: string, options: Visit = {}) {
  const headers = new Headers({ "user-agent": options.userAgent ?? agent });
  if (options.cookie) headers.set("cookie", options.cookie);
  if (options.acceptLanguage) headers.set("accept-language", options.acceptLanguage);
  const response = await SELF.fetch(`${site}${path}`, {
    method: options.method ?? "GET",
    headers,
    redirect: "manual",
    cf: { country: options.country ?? "GB", ...options.cf },
  });
  const text = await response.text();
  return { response, text, cache: response.headers.get("x-cache") };
}

const webIdA = "0b5f1f9e-1111-4111-8111-111111111111";
const webIdB = "0b5f1f9e-2222-4222-8222-222222222222";

function htmlLang(text: string): string | undefined {
  return /<html[^>]* lang="([^"]+)"/.exec(text)?.[1];
}

function nonces(text: string): string[] {
  return [...text.matchAll(/\bnonce="([^"]*)"/g)].map((match) => match[1] ?? "");
}

function policyNonce(response: Response): string | undefined {
  return /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
}

describe("the document cache", () => {
  test("a second visitor of the same key gets the stored document, with cookies of their own", async () => {
    const path = fresh();
    const first = await visit(path, { cookie: `webId=${webIdA}` });
    expect(first.response.status).toBe(200);
    expect(first.cache).toBe("MISS");
    // The visitor keeps its webId; one the site has not vouched for yet gets its voucher.
    expect(first.response.headers.getSetCookie().map((cookie) => cookie.split("=")[0])).toEqual(["webIdSig"]);

    const second = await visit(path);
    expect(second.cache).toBe("HIT");
    const cookies = second.response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith("webId="))).toBe(true);
    const third = await visit(path);
    expect(third.cache).toBe("HIT");
    const [secondId] = cookies.filter((c) => c.startsWith("webId="));
    expect(third.response.headers.getSetCookie()).not.toContain(secondId);

    // No visitor's id is in the shared document.
    for (const page of [first, second, third]) {
      expect(page.text).not.toContain(webIdA);
      expect(page.text).not.toContain(/webId=([^;]+)/.exec(secondId ?? "")?.[1]);
    }
    expect(second.text.replace(/nonce="[^"]*"/g, "")).toBe(first.text.replace(/nonce="[^"]*"/g, ""));
    expect(second.response.headers.get("server-timing")).toMatch(/cache;desc="HIT memory";dur=\d+/);
    expect(first.response.headers.get("server-timing")).toMatch(/render;dur=\d+/);
  });

  test.each([
    {
      name: "language cookie",
      a: { cookie: "lang=fr" },
      b: { cookie: "lang=de" },
      langs: ["fr-FR", "de-DE"],
    },
    {
      name: "Accept-Language",
      a: { acceptLanguage: "es" },
      b: { acceptLanguage: "ja" },
      langs: ["es", "ja-JP"],
    },
    {
      name: "cookie against Accept-Language",
      a: { cookie: "lang=it" },
      b: { acceptLanguage: "en" },
      langs: ["it-IT", "en-US"],
    },
  ])("visitors of two languages ($name) never share a document", async ({ a, b, langs }) => {
    const path = fresh();
    const first = await visit(path, a);
    const second = await visit(path, b);
    expect([first.cache, second.cache]).toEqual(["MISS", "MISS"]);
    expect([htmlLang(first.text), htmlLang(second.text)]).toEqual(langs);
    const again = await visit(path, a);
    expect(again.cache).toBe("HIT");
    expect(htmlLang(again.text)).toBe(langs[0]);
  });

  test("the lang parameter is part of the query, and its document is its own", async () => {
    const path = fresh();
    const german = await visit(`${path}&lang=de`);
    const plain = await visit(path);
    expect([german.cache, plain.cache]).toEqual(["MISS", "MISS"]);
    expect([htmlLang(german.text), htmlLang(plain.text)]).toEqual(["de-DE", "en-US"]);
  });

  test.each([
    { name: "countries", a: { country: "DE" }, b: { country: "FR" } },
    { name: "in the app or not", a: { cookie: "appconfig=%7B%22country%22%3A%22GB%22%7D" }, b: {} },
    { name: "bot or person", a: { userAgent: googlebot }, b: {} },
    { name: "platforms", a: { userAgent: iphone }, b: {} },
  ])("visitors of two $name never share a document", async ({ a, b }) => {
    const path = fresh();
    const first = await visit(path, a);
    const second = await visit(path, b);
    expect([first.cache, second.cache]).toEqual(["MISS", "MISS"]);
    expect((await visit(path, a)).cache).toBe("HIT");
    expect((await visit(path, b)).cache).toBe("HIT");
  });

  test("a page that varies by user agent is stored per platform", async () => {
    const track = await env.DB.prepare("SELECT key, alias FROM tracks ORDER BY key LIMIT 1").first<{
      key: number;
      alias: string;
    }>();
    const path = fresh(`/track/${track?.key}/${track?.alias}`);
    const first = await visit(path);
    expect(first.response.headers.get("vary")).toMatch(/User-Agent/);
    expect([first.cache, (await visit(path)).cache]).toEqual(["MISS", "HIT"]);
    expect((await visit(path, { userAgent: iphone })).cache).toBe("MISS");
  });

  test("a country's document says its country", async () => {
    const path = fresh();
    const german = await visit(path, { country: "DE" });
    const french = await visit(path, { country: "FR" });
    expect(german.text).toMatch(/country\\",\\"DE\\"/);
    expect(french.text).toMatch(/country\\",\\"FR\\"/);
  });

  test("a HEAD is answered from the stored document, without its body", async () => {
    const path = fresh();
    await visit(path);
    const head = await visit(path, { method: "HEAD" });
    expect(head.cache).toBe("HIT");
    expect(head.text).toBe("");
    expect(head.response.headers.get("content-type")).toMatch(/^text\/html/);
  });

  test("every answer has a nonce of its own, in the CSP header and every nonce attribute", async () => {
    const path = fresh();
    const answers = [await visit(path), await visit(path), await visit(path)];
    expect(answers.map((a) => a.cache)).toEqual(["MISS", "HIT", "HIT"]);
    const seen = new Set<string>();
    for (const { response, text } of answers) {
      const nonce = policyNonce(response);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      const inDocument = nonces(text);
      expect(inDocument.length).toBeGreaterThan(0);
      expect(new Set(inDocument)).toEqual(new Set([nonce]));
      seen.add(nonce ?? "");
    }
    expect(seen.size).toBe(3);
    // The stored copy keeps no answer's nonce anywhere else in the document.
    const [first, second] = answers;
    expect(second?.text).not.toContain(policyNonce(first?.response as Response));
  });

  test("100 concurrent identical misses render once", async () => {
    const path = fresh();
    const answers = await Promise.all(Array.from({ length: 100 }, () => visit(path)));
    const sources = answers.map((a) => a.cache);
    expect(sources.filter((source) => source === "MISS")).toHaveLength(1);
    expect(sources.every((source) => ["MISS", "COALESCED", "HIT"].includes(source ?? ""))).toBe(true);
    expect(new Set(answers.map((a) => a.response.status))).toEqual(new Set([200]));
    const renders = answers.filter((a) => /render;dur=/.test(a.response.headers.get("server-timing") ?? ""));
    expect(renders).toHaveLength(1);
  });

  test("a signed-in visitor bypasses the cache, and their page is not stored", async () => {
    const path = fresh();
    const person = browser();
    await signIn(person, "cache-reader@example.test");
    const signedIn = await person.fetch(path);
    expect(signedIn.headers.get("x-cache")).toBe("BYPASS");
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect((await visit(path)).cache).toBe("MISS");
  });

  test.each([
    { name: "a session cookie", cookie: "tw_session=abc" },
    { name: "an install id cookie", cookie: "inid=0b5f1f9e-3333-4333-8333-333333333333" },
  ])("a request with $name bypasses", async ({ cookie }) => {
    expect((await visit(fresh(), { cookie })).cache).toBe("BYPASS");
  });

  test("a page the visitor's own state decides is never stored", async () => {
    const path = fresh("/survey");
    const first = await visit(path, { cookie: `webId=${webIdA}` });
    expect(first.response.headers.get("cache-control")).toBe("private, no-store");
    expect(first.cache).toBe("MISS");
    expect((await visit(path, { cookie: `webId=${webIdB}` })).cache).toBe("MISS");
  });

  test("a move is answered, and not stored", async () => {
    const path = fresh("/charts/top-in-my-country");
    const moved = await visit(path);
    expect(moved.response.status).toBe(302);
    expect(moved.response.headers.get("location")).toMatch(/^\/top-200\//);
    expect((await visit(path)).cache).toBe("MISS");
  });

  test("error and not-found answers are not stored", async () => {
    const path = fresh("/no-such-page");
    expect((await visit(path)).response.status).toBe(404);
    expect((await visit(path)).cache).toBe("MISS");
  });

  test("an AMP page is cached by its address alone", async () => {
    const path = fresh("/amp/charts");
    const first = await visit(path, { cookie: "lang=de", country: "DE" });
    const second = await visit(path, { acceptLanguage: "fr", country: "FR", cookie: "tw_session=abc" });
    expect(first.response.status).toBe(200);
    expect([first.cache, second.cache]).toEqual(["MISS", "HIT"]);
    expect(second.response.headers.getSetCookie()).toEqual([]);
  });
});

describe("pages that read the visitor's place, date or device", () => {
  // Edge locations: two points 300 m apart in one 5-character geohash cell (gcpvj, central
  // London), and one in Manchester. Kiritimati (UTC+14) and Pago Pago (UTC−11) never share a date.
  const london = { latitude: "51.5072", longitude: "-0.1276", timezone: "Europe/London" };
  const londonNearby = { latitude: "51.5080", longitude: "-0.1240", timezone: "Europe/London" };
  const manchester = { latitude: "53.4808", longitude: "-2.2426", timezone: "Europe/London" };
  const kiritimati = { ...london, timezone: "Pacific/Kiritimati" };
  const pagoPago = { ...london, timezone: "Pacific/Pago_Pago" };
  const androidPhone =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
  const androidTablet =
    "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

  /** The concert list's loader data: where it was measured from, and its "today". */
  function listOf(text: string) {
    const location = /\\"source\\",\\"(browser|edge)\\"/.exec(text)?.[1];
    const today = /\bmin="(\d{4}-\d{2}-\d{2})"/.exec(text)?.[1];
    return { location, today };
  }

  test("the concert list is shared by the visitors of one cell and one date", async () => {
    const path = fresh("/concerts");
    const first = await visit(path, { cf: london });
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("cache-control")).toBeNull();
    expect(first.cache).toBe("MISS");
    expect(listOf(first.text).location).toBe("edge");
    const neighbour = await visit(path, { cf: londonNearby });
    expect(neighbour.cache).toBe("HIT");
    // The document holds the cell's centre, never a visitor's own coordinates.
    for (const coordinate of [london.latitude, london.longitude, londonNearby.latitude]) {
      expect(first.text).not.toContain(coordinate);
    }
  });

  test.each([
    { name: "places", a: { cf: london }, b: { cf: manchester } },
    { name: "dates (time zones)", a: { cf: kiritimati }, b: { cf: pagoPago } },
    { name: "countries", a: { cf: london, country: "GB" }, b: { cf: london, country: "FR" } },
    { name: "located and not", a: { cf: london }, b: {} },
  ])("visitors of two $name never get each other's concert list", async ({ a, b }) => {
    const path = fresh("/concerts");
    const first = await visit(path, a);
    const second = await visit(path, b);
    expect([first.cache, second.cache]).toEqual(["MISS", "MISS"]);
    expect([(await visit(path, a)).cache, (await visit(path, b)).cache]).toEqual(["HIT", "HIT"]);
  });

  test("each date's list says its own today", async () => {
    const path = fresh("/concerts");
    const east = listOf((await visit(path, { cf: kiritimati })).text).today;
    const west = listOf((await visit(path, { cf: pagoPago })).text).today;
    expect(east).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(west).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(east).not.toBe(west);
  });

  test("the AMP concert list depends on its address alone: no visitor's place or date", async () => {
    const path = fresh("/amp/concerts");
    const first = await visit(path, { cf: kiritimati });
    const second = await visit(path, { cf: manchester, country: "FR" });
    expect(first.response.status).toBe(200);
    expect([first.cache, second.cache]).toEqual(["MISS", "HIT"]);
    expect(first.text).not.toContain(kiritimati.latitude);
  });

  test("an offer page is shared by anonymous visitors of one country and device", async () => {
    const path = fresh("/campaign/first-month");
    const first = await visit(path, { cookie: `webId=${webIdA}` });
    expect(first.response.status).toBe(200);
    expect(first.cache).toBe("MISS");
    const second = await visit(path, { cookie: `webId=${webIdB}` });
    expect(second.cache).toBe("HIT");
    expect(second.text).not.toContain(webIdA);
  });

  test.each([
    { name: "countries", a: { country: "GB" }, b: { country: "ZA" } },
    { name: "smartphones and tablets", a: { userAgent: androidPhone }, b: { userAgent: androidTablet } },
    { name: "in the app or not", a: { cookie: "appconfig=%7B%22country%22%3A%22GB%22%7D" }, b: {} },
  ])("visitors of two $name never get each other's offer page", async ({ a, b }) => {
    const path = fresh("/campaign/three-free");
    const first = await visit(path, a);
    const second = await visit(path, b);
    expect([first.cache, second.cache]).toEqual(["MISS", "MISS"]);
    expect([(await visit(path, a)).cache, (await visit(path, b)).cache]).toEqual(["HIT", "HIT"]);
  });

  test("a tablet is told to open a smartphone-only offer on a phone, a phone is not", async () => {
    const path = fresh("/campaign/three-free");
    const phone = await visit(path, { userAgent: androidPhone, country: "DE" });
    const tablet = await visit(path, { userAgent: androidTablet, country: "DE" });
    expect([phone.cache, tablet.cache]).toEqual(["MISS", "MISS"]);
    expect(phone.text).toContain('\\"signInRequired\\"');
    expect(tablet.text).toContain('\\"openOnPhone\\"');
  });

  test("a signed-in visitor's offer page is theirs alone", async () => {
    const path = fresh("/campaign/first-month");
    await visit(path);
    const person = browser();
    await signIn(person, "offer-reader@example.test");
    const signedIn = await person.fetch(path);
    expect(signedIn.headers.get("x-cache")).toBe("BYPASS");
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("the document cache and feature flags", () => {
  // A flag on for half of the visitors (by web id) and one on in Germany only: each variant set is
  // its own document.
  beforeAll(async () => {
    const config = {
      featureflags: {
        search: { data: { enabled: true } },
        halfofvisitors: { data: { enabled: true }, control: { rollout: 50 } },
        germanyonly: { data: { enabled: true }, control: { countries: ["DE"] } },
      },
    };
    await env.DB.prepare("UPDATE feature_config SET config = ? WHERE app = ''")
      .bind(JSON.stringify(config))
      .run();
  });

  /** Web ids on one side of the rollout, the first `count` of them. */
  function idsIn(inside: boolean, count: number): string[] {
    const ids: string[] = [];
    for (let n = 0; ids.length < count; n += 1) {
      const id = `0b5f1f9e-4444-4444-8444-${String(n).padStart(12, "0")}`;
      if (rolloutBucket("halfofvisitors", id) < 50 === inside) ids.push(id);
    }
    return ids;
  }

  test("visitors with different flags never share a document; the same flags do", async () => {
    const path = fresh();
    const [inside, otherInside] = idsIn(true, 2);
    const [outside] = idsIn(false, 1);
    const first = await visit(path, { cookie: `webId=${inside}` });
    const second = await visit(path, { cookie: `webId=${outside}` });
    expect([first.cache, second.cache]).toEqual(["MISS", "MISS"]);
    expect((await visit(path, { cookie: `webId=${otherInside}` })).cache).toBe("HIT");
    // Germany's flag is a variant of its own.
    expect((await visit(path, { cookie: `webId=${inside}`, country: "DE" })).cache).toBe("MISS");
  });
});

describe("stale documents", () => {
  // The cache's own clock: the isolate's Date does not move for a test.
  test("past its lifetime a document answers at once, and one render refreshes it", async () => {
    let clock = 1_000_000;
    const documents = createDocumentCache({ cache: null, now: () => clock });
    let renders = 0;
    const render = async () => {
      renders += 1;
      const response = new Response(`<p>render ${renders}</p>`, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=60" },
      });
      return { response, freshForMs: 30_000 };
    };
    const pending: Promise<unknown>[] = [];
    const serve = () => documents.serve({ key: "/stale", render, waitUntil: (p) => pending.push(p) });
    const text = (served: { answer: { body: Uint8Array } }) => new TextDecoder().decode(served.answer.body);

    expect((await serve()).source).toBe("MISS");
    clock += 29_000;
    expect((await serve()).source).toBe("HIT");
    // Its lifetime is the data's (30 s), not the page's own 60 s.
    clock += 2_000;
    const stale = await Promise.all([serve(), serve(), serve()]);
    expect(stale.map((served) => served.source)).toEqual(["STALE", "STALE", "STALE"]);
    expect(stale.map(text)).toEqual(["<p>render 1</p>", "<p>render 1</p>", "<p>render 1</p>"]);
    await Promise.all(pending);
    expect(renders).toBe(2);
    const refreshed = await serve();
    expect([refreshed.source, text(refreshed)]).toEqual(["HIT", "<p>render 2</p>"]);
    // Past the stale window a copy is gone: the visitor waits for a render.
    clock += 30_000 + documentStaleSeconds * 1000;
    expect((await serve()).source).toBe("MISS");
  });

  test("a page that says must-revalidate (a chart's order, decision 032) is never answered stale", async () => {
    let clock = 1_000_000;
    const documents = createDocumentCache({ cache: null, now: () => clock });
    let renders = 0;
    const render = async () => {
      renders += 1;
      const response = new Response(`<p>order ${renders}</p>`, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          [documentCacheControlHeader]: "max-age=600, must-revalidate",
        },
      });
      return { response, freshForMs: 30_000 };
    };
    const serve = () => documents.serve({ key: "/chart", render, waitUntil: () => undefined });
    const text = (served: { answer: { body: Uint8Array } }) => new TextDecoder().decode(served.answer.body);

    expect((await serve()).source).toBe("MISS");
    clock += 29_000;
    expect((await serve()).source).toBe("HIT");
    // Past the data's lifetime (the next recompute) the visitor waits for the new order.
    clock += 2_000;
    const next = await serve();
    expect([next.source, text(next)]).toEqual(["MISS", "<p>order 2</p>"]);
  });

  test.each([
    { name: "a 404", status: 404, headers: {}, freshForMs: 60_000 },
    { name: "a 500", status: 500, headers: {}, freshForMs: 60_000 },
    { name: "an answer with Set-Cookie", status: 200, headers: { "set-cookie": "a=b" }, freshForMs: 60_000 },
    { name: "a private answer", status: 200, headers: { "cache-control": "private" }, freshForMs: 60_000 },
    { name: "data the caches do not keep", status: 200, headers: {}, freshForMs: 0 },
  ] as { name: string; status: number; headers: Record<string, string>; freshForMs: number }[])(
    "$name is not stored",
    async ({ status, headers, freshForMs }) => {
      const documents = createDocumentCache({ cache: null });
      const render = async () => ({ response: new Response("<p>x</p>", { status, headers }), freshForMs });
      const serve = () => documents.serve({ key: "/x", render, waitUntil: () => undefined });
      expect((await serve()).source).toBe("MISS");
      expect((await serve()).source).toBe("MISS");
    },
  );
});
