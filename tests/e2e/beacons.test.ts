import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, personUserAgent } from "./browser";

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

type Received = { metrics: number; routes: Record<string, number> };

async function metricsReceivedSince(since: number): Promise<Received> {
  const response = await fetch(`${baseURL}/services/metrics/received?since=${since}`);
  return (await response.json()) as Received;
}

/**
 * What the origin stored since `since`, once the beacons queue has delivered everything sent
 * before now: a marker beacon is sent last and waited for (the queue delivers in order, in batches
 * of up to 5 s), then left out of the counts.
 */
async function deliveredSince(since: number): Promise<Received> {
  const marker = `e2e.delivered-${since}`;
  await fetch(`${baseURL}/services/metrics/${marker}/${since}`);
  const key = `metrics:${marker}`;
  await expect.poll(async () => (await metricsReceivedSince(since)).routes[key], { timeout: 30_000 }).toBe(1);
  const { metrics, routes } = await metricsReceivedSince(since);
  const { [key]: _, ...others } = routes;
  return { metrics: metrics - 1, routes: others };
}

/**
 * What the origin received from one visit, read once the page is past every point where it sends a
 * beacon (no waiting for time to pass): `pageview`, the page-view beacon's answer (the origin has
 * counted it then); `ready`, the runtime's start-up is done (`html[data-ready]`, after the page
 * view it made; a bot's runtime sends nothing at all, so nothing can come later); `load`, the
 * network is idle after the load of a page that runs none of the site's script (AMP: its runtime
 * is an empty stand-in here, so nothing of it sends either).
 */
async function visit(
  userAgent: string,
  path: string,
  until: "pageview" | "ready" | "load",
): Promise<Received> {
  const since = Date.now();
  const { page, errors } = await openPage(browser, { userAgent });
  // The AMP runtime's CDN is out of reach offline; an empty stand-in keeps the console clean.
  await page.route("https://cdn.ampproject.org/**", (route) =>
    route.fulfill({ contentType: "text/javascript", body: "" }),
  );
  const pageview = page.waitForResponse((response) =>
    new URL(response.url()).pathname.startsWith("/services/metrics/web.pageview."),
  );
  await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
  if (until === "pageview") await pageview;
  else pageview.catch(() => undefined);
  if (until === "ready") await page.locator("html[data-ready]").waitFor({ state: "attached" });
  expect(errors).toEqual([]);
  await page.context().close();
  return deliveredSince(since);
}

test("a person's page view sends statistics beacons the origin receives", async () => {
  expect((await visit(personUserAgent, "/", "pageview")).metrics).toBeGreaterThanOrEqual(1);
});

test("a bot's browser sends no beacon at all; the edge counts the bot once (spec 000 §8)", async () => {
  const received = await visit(
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "/",
    "ready",
  );
  expect(received.routes).toEqual({ "metrics:web.error.bot": 1 });
});

test("an AMP page sends no beacon at all, even to a person", async () => {
  expect((await visit(personUserAgent, "/amp", "load")).metrics).toBe(0);
});

test("a visit's refid and referrer (query or hash) ride on its beacons, which stats-window-listener shows", async () => {
  const { page, errors } = await openPage(browser, { userAgent: personUserAgent });
  const sent: URL[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/services/metrics/")) sent.push(url);
  });
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { statsSeen: unknown[] }).statsSeen = seen;
    window.addEventListener("stats", (event) => seen.push((event as CustomEvent).detail));
  });
  await page.goto(`${baseURL}/charts?refid=partner-7#referrer=mail;stats-window-listener=1`);
  await page.waitForFunction(() =>
    (window as unknown as { statsSeen: { query: { beaconId?: string } }[] }).statsSeen.some(
      (beacon) => beacon.query.beaconId === "global.dnshealth",
    ),
  );
  const seen = await page.evaluate(
    () => (window as unknown as { statsSeen: { route: string; query: Record<string, string> }[] }).statsSeen,
  );
  const pageview = seen.find((beacon) => beacon.route === "web.pageview.chartsview");
  expect(pageview?.query).toMatchObject({
    refid: "partner-7",
    deeplinkreferrer: "mail",
    appname: "web",
    screenname: "chartsview",
  });
  // The DNS health call (spec 000 §7) reports the status the health address gave.
  const health = seen.find((beacon) => beacon.query.beaconId === "global.dnshealth");
  expect(health?.query.status_code).toBe("200");
  // Sent before the first page view, it is still that page's statistic, not web.userevent.unknown.
  expect(health?.route).toBe("web.userevent.chartsview");
  expect(sent.some((url) => url.searchParams.get("refid") === "partner-7")).toBe(true);
  expect(errors).toEqual([]);
  await page.context().close();
});

test("a link to another site sends its outbound beacon before the page leaves", async () => {
  const { page } = await openPage(browser, { userAgent: personUserAgent });
  const order: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.searchParams.get("beaconId") === "outbound")
      order.push(`beacon:${url.searchParams.get("providername")}`);
  });
  await page.route("https://elsewhere.example/**", (route) => {
    order.push("left");
    return route.fulfill({ contentType: "text/html", body: "<title>elsewhere</title>" });
  });
  await page.goto(`${baseURL}/charts`, { waitUntil: "networkidle" });
  await page.evaluate(
    `document.body.insertAdjacentHTML("beforeend", '<a id="outbound-test" href="https://elsewhere.example/page">elsewhere</a>')`,
  );
  await page.click("#outbound-test");
  await page.waitForURL("https://elsewhere.example/page");
  expect(order).toEqual(["beacon:elsewhereexample", "left"]);
  await page.context().close();
});

test("each section sends its first-show impression once, when it comes into view", async () => {
  const { page, errors } = await openPage(browser, {
    userAgent: personUserAgent,
    viewport: { width: 390, height: 600 },
  });
  const impressions: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.searchParams.get("beaconType") === "impression")
      impressions.push(url.searchParams.get("beaconId") ?? "");
  });
  await page.goto(`${baseURL}/`);
  const sections = await page
    .locator("main section[aria-labelledby]")
    .evaluateAll((all) => all.map((section) => section.getAttribute("aria-labelledby")));
  expect(sections.length).toBeGreaterThanOrEqual(2);
  const last = `firstshow.${sections[sections.length - 1]}`;
  // The first section is in view at once; the last one only after scrolling down to it.
  await expect.poll(() => impressions).toContain(`firstshow.${sections[0]}`);
  expect(impressions).not.toContain(last);
  await page.locator("main section[aria-labelledby]").last().scrollIntoViewIfNeeded();
  await expect.poll(() => impressions).toContain(last);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator("main section[aria-labelledby]").last().scrollIntoViewIfNeeded();
  // An observer of the test's own, made after the scroll, reports the section in view in the same
  // update of intersection observations as the page's (older) observer, and its callback runs after
  // the page's: a second impression, sent at once from that callback, has been requested by then.
  await page
    .locator("main section[aria-labelledby]")
    .last()
    .evaluate(
      (section) =>
        new Promise<void>((resolve) => {
          const observer = new IntersectionObserver((entries) => {
            if (entries.some((entry) => entry.isIntersecting)) {
              observer.disconnect();
              resolve();
            }
          });
          observer.observe(section);
        }),
    );
  expect(impressions.filter((id) => id === last)).toHaveLength(1);
  expect(errors).toEqual([]);
  await page.context().close();
});

test("two visitors of one cached document each send their own web id, the one in their cookie", async () => {
  // A query of its own: the first visitor renders the document, the second gets the stored copy.
  const path = `/charts?cached-visitors=${Date.now()}`;
  const pageviews: { webId: string | undefined; cookie: string | undefined; cache: string | null }[] = [];
  for (let visitor = 0; visitor < 2; visitor += 1) {
    const { page, errors } = await openPage(browser, { userAgent: personUserAgent });
    await page.addInitScript(() => {
      const seen: unknown[] = [];
      (window as unknown as { statsSeen: unknown[] }).statsSeen = seen;
      window.addEventListener("stats", (event) => seen.push((event as CustomEvent).detail));
    });
    const answer = await page.goto(`${baseURL}${path}#stats-window-listener=1`);
    await page.waitForFunction(() =>
      (window as unknown as { statsSeen: { route: string }[] }).statsSeen.some(
        (beacon) => beacon.route === "web.pageview.chartsview",
      ),
    );
    const seen = await page.evaluate(
      () =>
        (window as unknown as { statsSeen: { route: string; query: Record<string, string> }[] }).statsSeen,
    );
    const cookie = (await page.context().cookies(baseURL)).find((c) => c.name === "webId")?.value;
    const pageview = seen.find((beacon) => beacon.route === "web.pageview.chartsview");
    pageviews.push({ webId: pageview?.query.webId, cookie, cache: answer?.headers()["x-cache"] ?? null });
    expect(errors).toEqual([]);
    await page.context().close();
  }
  expect(pageviews.map((view) => view.cache)).toEqual(["MISS", "HIT"]);
  for (const view of pageviews) {
    expect(view.cookie).toMatch(/^[0-9a-f-]{36}$/);
    expect(view.webId).toBe(view.cookie);
  }
  expect(pageviews[0]?.webId).not.toBe(pageviews[1]?.webId);
});

test("a visitor who asks not to be tracked (GPC) gets no web id cookie or storage, and beacons without one", async () => {
  const since = Date.now();
  const { page, errors } = await openPage(browser, {
    userAgent: personUserAgent,
    extraHTTPHeaders: { "Sec-GPC": "1" },
  });
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true });
  });
  const sent: URL[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/services/metrics/")) sent.push(url);
  });
  const pageview = page.waitForResponse((response) =>
    new URL(response.url()).pathname.startsWith("/services/metrics/web.pageview."),
  );
  await page.goto(`${baseURL}/charts`);
  await pageview;
  await page.locator("html[data-ready]").waitFor({ state: "attached" });
  const cookies = await page.context().cookies(baseURL);
  expect(cookies.map((cookie) => cookie.name)).not.toContain("webId");
  const stored = await page.evaluate(() =>
    Object.keys(window.localStorage).filter((key) => key.toLowerCase().includes("webid")),
  );
  expect(stored).toEqual([]);
  expect(sent.length).toBeGreaterThan(0);
  for (const url of sent) {
    expect(url.searchParams.has("webId")).toBe(false);
    expect(url.searchParams.has("newuser")).toBe(false);
  }
  expect(errors).toEqual([]);
  await page.context().close();
  expect((await deliveredSince(since)).metrics).toBeGreaterThanOrEqual(1);
});
