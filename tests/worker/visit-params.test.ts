import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createOrigin } from "#origin/index.ts";
import worker from "./built-worker";

// Spec 000 §2 address parameters and §8 error statistics as the worker answers them (decision
// 026). The worker talks to a "remote" origin here (a second instance of the embedded one,
// as tests/worker/origin-switch.test.ts does), so every upstream call a page makes is seen.

afterEach(() => {
  vi.restoreAllMocks();
});

const remoteHost = "origin-visit.example";
const person =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

/** One request through the built worker, waiting for what it left running (the statistics). */
async function visit(
  path: string,
  init: { userAgent?: string; cf?: { country: string }; destination?: string } = {},
) {
  const remote = createOrigin();
  const seen: URL[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, requestInit) => {
    const request = new Request(input, requestInit);
    if (new URL(request.url).host !== remoteHost) return realFetch(input, requestInit);
    seen.push(new URL(request.url));
    return remote.fetch(request, env);
  });
  const ctx = createExecutionContext();
  const request = new Request(`https://tunewave.test${path}`, {
    headers: {
      "user-agent": init.userAgent ?? person,
      ...(init.destination ? { "sec-fetch-dest": init.destination } : {}),
    },
    cf: init.cf,
  } as RequestInit);
  const response = await worker.fetch(request, { ...env, SERVICES_ORIGIN: `https://${remoteHost}` }, ctx);
  const html = await response.text();
  await waitOnExecutionContext(ctx);
  vi.restoreAllMocks();
  return { response, html, seen };
}

function statisticsOf(seen: URL[]) {
  return seen
    .filter((url) => url.pathname.startsWith("/services/metrics/"))
    .map((url) => ({
      route: url.pathname.split("/")[3],
      beaconId: url.searchParams.get("beaconId"),
      errorcode: url.searchParams.get("errorcode"),
      screenname: url.searchParams.get("screenname"),
    }));
}

describe("fb_locale: the language a social-card scraper asks for", () => {
  const cases: [query: string, locale: string][] = [
    ["?fb_locale=de_DE", "de-DE"],
    ["?fb_locale=pt_BR", "pt-BR"],
    ["?fb_locale=ja_JP&lang=fr", "fr-FR"],
    ["?fb_locale=xx_XX", "en-US"],
    ["?fb_locale=<b>", "en-US"],
  ];
  test.each(cases)("/charts%s answers in %s", async (query, locale) => {
    const { response, html } = await visit(`/charts${query}`, { cf: { country: "GB" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Language")).toBe(locale);
    expect(html).toContain(`<html lang="${locale}"`);
  });

  test("the AMP form follows it too (it is part of the address)", async () => {
    const { response } = await visit("/amp/charts?fb_locale=it_IT");
    expect(response.headers.get("Content-Language")).toBe("it-IT");
  });
});

describe("spec 000 §8: bots, unknown platforms and unknown countries are error statistics", () => {
  const cases: [
    name: string,
    path: string,
    init: { userAgent?: string; cf?: { country: string }; destination?: string },
    expected: { route: string; beaconId: string; errorcode: string }[],
  ][] = [
    ["a person in a known country", "/charts", { cf: { country: "DE" } }, []],
    ["a country from the co parameter is known", "/charts?co=FR", {}, []],
    [
      "no country from any source",
      "/charts",
      {},
      [{ route: "web.error", beaconId: "global.unknown-country", errorcode: "unknowncountry" }],
    ],
    [
      "an agent naming no system",
      "/charts",
      {
        userAgent: "Mozilla/5.0 (Fuchsia) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0",
        cf: { country: "DE" },
      },
      [{ route: "web.error", beaconId: "global.unknown-platform", errorcode: "unknownplatform" }],
    ],
    [
      "a bot, once, on the bot route",
      "/charts",
      { userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
      [{ route: "web.error.bot", beaconId: "global.bot", errorcode: "bot" }],
    ],
    ["a client navigation's data request is the same visit", "/charts.data", {}, []],
    ["an image the browser asked of the pages is no page view", "/charts", { destination: "image" }, []],
    [
      "a document the browser asked for is",
      "/charts",
      { destination: "document" },
      [{ route: "web.error", beaconId: "global.unknown-country", errorcode: "unknowncountry" }],
    ],
    ["an AMP document (kept by caches, seen by many) counts nothing", "/amp/charts", {}, []],
  ];
  test.each(cases)("%s", async (_name, path, init, expected) => {
    const { seen } = await visit(path, init);
    expect(statisticsOf(seen)).toEqual(
      expected.map((statistic) => ({ ...statistic, screenname: "chartsview" })),
    );
  });

  test("the embedded origin stores them", async () => {
    const since = Date.now();
    const ctx = createExecutionContext();
    await worker.fetch(
      new Request("https://tunewave.test/charts", { headers: { "user-agent": "Googlebot/2.1" } }),
      { ...env, SERVICES_ORIGIN: "" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    // Stored once the beacons queue delivers its batch (origin/beacons.ts).
    await vi.waitFor(
      async () => {
        const row = await env.DB.prepare(
          "SELECT route, query FROM beacons WHERE kind = 'metrics' AND received_at >= ? AND route = 'web.error.bot'",
        )
          .bind(since)
          .first<{ route: string; query: string }>();
        expect(row?.query).toContain("beaconId=global.bot");
      },
      { timeout: 20_000, interval: 100 },
    );
  });
});

describe("preview=true: a random r on the event calls (spec 001 §7)", () => {
  const eventCalls = (seen: URL[]) => seen.filter((url) => url.pathname.includes("/shazam-events"));

  test("the concerts page asks its events with r in preview mode, a new one each time", async () => {
    const first = eventCalls((await visit("/concerts?preview=true&co=GB")).seen);
    const second = eventCalls((await visit("/concerts?preview=true&co=GB")).seen);
    expect(first.length).toBeGreaterThan(0);
    const r = first[0]?.searchParams.get("r");
    expect(r).toMatch(/^[0-9a-f]{8}$/);
    expect(second[0]?.searchParams.get("r")).not.toBe(r);
  });

  test.each(["/concerts?co=GB", "/concerts?preview=false&co=GB", "/concerts?preview=maybe&co=GB"])(
    "%s asks without r",
    async (path) => {
      const calls = eventCalls((await visit(path)).seen);
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) expect(call.searchParams.has("r")).toBe(false);
    },
  );
});
