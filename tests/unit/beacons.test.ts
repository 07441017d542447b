import { afterEach, expect, test, vi } from "vitest";
import {
  type BridgeBeacon,
  createBeaconSender,
  firstShowParams,
  navigationTimeoutMs,
  outboundBeaconWaitMs,
  pageviewParams,
  watchNavigation,
} from "#app/shell/browser/beacons.ts";
import {
  type BeaconParams,
  beaconFailureId,
  buildBeacon,
  metricRoute,
  metricsUrl,
  sanitizeBeaconValue,
} from "#rules/beacon-params.ts";
import { SiteError } from "#rules/errors.ts";

afterEach(() => {
  vi.useRealTimers();
});

test.each([
  { value: "Hello World", options: {}, expected: "hello_world" },
  { value: "Track Page  2", options: {}, expected: "track_page__2" },
  { value: "a/b.c?d=e&f<g>", options: {}, expected: "abcdefg" },
  { value: "keep-this_one,and,that", options: {}, expected: "keep-this_one,and,th" },
  { value: "abcdefghijklmnopqrstuvwxyz", options: {}, expected: "abcdefghijklmnopqrst" },
  {
    value: "abcdefghijklmnopqrstuvwxyz",
    options: { ignoreLength: true },
    expected: "abcdefghijklmnopqrstuvwxyz",
  },
  { value: "MixedCase", options: { preserveCase: true }, expected: "MixedCase" },
  { value: "Crème brûlée", options: {}, expected: "crme_brle" },
  { value: "tab\there", options: {}, expected: "tab_here" },
  { value: "  ", options: {}, expected: "__" },
  {
    value: "Ab Cd".repeat(10),
    options: { ignoreLength: true, preserveCase: true },
    expected: "Ab_Cd".repeat(10),
  },
])("sanitising $value with $options gives $expected", ({ value, options, expected }) => {
  expect(sanitizeBeaconValue(value, options)).toBe(expected);
});

test.each([
  {
    name: "labels are sanitised, cut and lowercased",
    params: { screenname: "Track Page Of Something" },
    expect: { screenname: "track_page_of_someth" },
  },
  {
    name: "ids keep case and length",
    params: { webId: "AbCdEf01-2345-6789-ABCD-0123456789ab" },
    expect: { webId: "AbCdEf01-2345-6789-ABCD-0123456789ab" },
  },
  {
    name: "ids still lose unsafe characters",
    params: { inid: "abc<script>" },
    expect: { inid: "abcscript" },
  },
  {
    name: "the user agent keeps case and length",
    params: { ua: "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0" },
    expect: { ua: "Mozilla50_X11_Linux_x86_64_Chrome1200" },
  },
  {
    name: "a path keeps its shape",
    params: { path: "/de/track/123/Some-Song" },
    expect: { path: "/de/track/123/Some-Song" },
  },
  { name: "a path of another shape is dropped", params: { path: "javascript:alert(1)" }, expect: {} },
  {
    name: "versions keep their dots",
    params: { osver: "17.4.1", browserver: "120.0.6099.71" },
    expect: { osver: "17.4.1", browserver: "120.0.6099.71" },
  },
  {
    name: "flags and numbers are typed",
    params: { inapp: true, newuser: false, timespent: 1234.6 },
    expect: { inapp: "true", newuser: "false", timespent: "1235" },
  },
  { name: "trackid falls back to trackkey", params: { trackkey: "55557" }, expect: { trackid: "55557" } },
  { name: "trackid wins over trackkey", params: { trackid: "1", trackkey: "2" }, expect: { trackid: "1" } },
  { name: "empty values are not sent", params: { providername: "???" }, expect: {} },
])("parameters: $name", ({ params, expect: expected }) => {
  const built = buildBeacon({ beaconType: "userevent", ...params } as BeaconParams);
  expect(built.query).toEqual({ beaconType: "userevent", ...expected });
});

test.each([
  { name: "neither type nor id", params: { screenname: "home" } },
  { name: "an unknown type", params: { beaconType: "click" } },
  { name: "a malformed id", params: { beaconId: "Bad Id!" } },
])("a beacon with $name fails with invalidparam", ({ params }) => {
  expect(() => buildBeacon(params as BeaconParams)).toThrowError(SiteError);
  try {
    buildBeacon(params as BeaconParams);
  } catch (error) {
    expect((error as SiteError).type).toBe("invalidparam");
  }
});

test("a beacon with only an id is valid", () => {
  expect(buildBeacon({ beaconId: "search.open" }).query).toEqual({ beaconId: "search.open" });
});

test.each([
  { params: { beaconType: "error" } as BeaconParams, isBot: false, route: "web.error" },
  { params: { beaconType: "exceptions" } as BeaconParams, isBot: false, route: "web.error" },
  { params: { beaconType: "error" } as BeaconParams, isBot: true, route: "web.error.bot" },
  {
    params: { beaconType: "pageview", screenname: "Track" } as BeaconParams,
    isBot: false,
    route: "web.pageview.track",
  },
  { params: { beaconType: "impression" } as BeaconParams, isBot: false, route: "web.impression.unknown" },
  {
    params: { beaconId: "share.open", screenname: "home" } as BeaconParams,
    isBot: false,
    route: "web.userevent.home",
  },
])("metric route of $params (bot: $isBot) is $route", ({ params, isBot, route }) => {
  expect(metricRoute(buildBeacon(params), { isBot })).toBe(route);
});

test("the metrics url carries route, time and the parameters as query", () => {
  const url = metricsUrl(
    buildBeacon({ beaconType: "pageview", screenname: "home", lang: "pt-BR" }),
    1700000000123,
  );
  expect(url).toBe(
    "/services/metrics/web.pageview.home/1700000000123?beaconType=pageview&screenname=home&lang=pt-br",
  );
});

test.each([
  { country: "IE", type: "impression" as const, webId: false, timezone: true },
  { country: "ie", type: "impression" as const, webId: false, timezone: true },
  { country: "GB", type: "impression" as const, webId: true, timezone: false },
  { country: "IE", type: "pageview" as const, webId: true, timezone: false },
])("$type in $country: webId sent $webId, time zone sent $timezone", ({ country, type, webId, timezone }) => {
  const built = buildBeacon(
    { beaconType: type, screenname: "home", webId: "w-1", timezone: "Europe/Dublin" },
    { country },
  );
  expect("webId" in built.query).toBe(webId);
  expect(built.query.timezone === "Europe/Dublin").toBe(timezone);
  expect(built.query.screenname).toBe("home");
});

function recorder(options: { failWhen?: (url: string) => boolean } = {}) {
  const urls: string[] = [];
  return {
    urls,
    loadImage: async (url: string) => {
      urls.push(url);
      if (options.failWhen?.(url)) throw new SiteError("network", "image failed");
    },
  };
}

function queryOf(url: string | undefined): Record<string, string> {
  return Object.fromEntries(new URL(url ?? "", "https://example.test").searchParams);
}

test("a beacon is loaded as an image with the defaults merged in, its own values winning", async () => {
  const images = recorder();
  const sender = createBeaconSender({
    suppressed: false,
    loadImage: images.loadImage,
    now: () => 42,
    defaults: () => ({ lang: "de", webId: "w-1", screenname: "default" }),
  });
  expect(await sender.send({ beaconType: "pageview", screenname: "home", lang: undefined })).toBe("sent");
  expect(images.urls).toHaveLength(1);
  expect(images.urls[0]?.startsWith("/services/metrics/web.pageview.home/42?")).toBe(true);
  expect(queryOf(images.urls[0])).toEqual({
    beaconType: "pageview",
    screenname: "home",
    lang: "de",
    webId: "w-1",
  });
});

test("suppressed (bots, AMP): no beacon at all, not even for failures", async () => {
  const images = recorder();
  const sender = createBeaconSender({ suppressed: true, loadImage: images.loadImage });
  expect(await sender.send(pageviewParams({ screenname: "home" }))).toBe("suppressed");
  expect(await sender.send({ screenname: "invalid" })).toBe("suppressed");
  expect(images.urls).toEqual([]);
});

test("inside the app the beacon goes over the bridge, not as an image", async () => {
  const images = recorder();
  const bridged: BridgeBeacon[] = [];
  const sender = createBeaconSender({
    suppressed: false,
    loadImage: images.loadImage,
    sendOverBridge: (beacon) => {
      bridged.push(beacon);
    },
    now: () => 7,
  });
  await sender.send({ beaconType: "userevent", beaconId: "share.open", screenname: "Track" });
  expect(images.urls).toEqual([]);
  expect(bridged).toEqual([
    {
      route: "web.userevent.track",
      time: 7,
      query: { beaconType: "userevent", beaconId: "share.open", screenname: "track" },
    },
  ]);
});

test("an invalid beacon sends one global.ue-exception error beacon", async () => {
  const images = recorder();
  const sender = createBeaconSender({ suppressed: false, loadImage: images.loadImage });
  expect(await sender.send({ screenname: "home" })).toBe("failed");
  expect(images.urls).toHaveLength(1);
  expect(images.urls[0]).toContain("/services/metrics/web.error/");
  expect(queryOf(images.urls[0])).toMatchObject({
    beaconType: "error",
    beaconId: beaconFailureId,
    errorcode: "invalidparam",
    screenname: "home",
  });
});

test("a beacon whose image fails is reported once, and the failed report is not reported again", async () => {
  const images = recorder({ failWhen: () => true });
  const sender = createBeaconSender({ suppressed: false, loadImage: images.loadImage });
  expect(await sender.send({ beaconType: "pageview", screenname: "home" })).toBe("failed");
  expect(images.urls).toHaveLength(2);
  expect(queryOf(images.urls[1])).toMatchObject({ beaconId: beaconFailureId, errorcode: "network" });
});

test("a failing global.ue-exception beacon itself causes nothing more", async () => {
  const images = recorder({ failWhen: () => true });
  const sender = createBeaconSender({ suppressed: false, loadImage: images.loadImage });
  await sender.send({ beaconType: "error", beaconId: beaconFailureId });
  expect(images.urls).toHaveLength(1);
});

test("IE impressions carry the browser's time zone and no webId", async () => {
  const images = recorder();
  const sender = createBeaconSender({
    suppressed: false,
    loadImage: images.loadImage,
    country: "IE",
    timeZone: () => "Europe/Dublin",
    defaults: () => ({ webId: "w-1", lang: "en" }),
  });
  await sender.send(firstShowParams("track.lyrics", "track"));
  await sender.send(pageviewParams({ screenname: "track" }));
  expect(queryOf(images.urls[0])).toEqual({
    beaconType: "impression",
    beaconId: "firstshow.track.lyrics",
    screenname: "track",
    lang: "en",
    timezone: "Europe/Dublin",
  });
  expect(queryOf(images.urls[1])).toEqual({
    beaconType: "pageview",
    screenname: "track",
    lang: "en",
    webId: "w-1",
  });
});

test("an outbound link navigates as soon as its beacon is sent", async () => {
  const sender = createBeaconSender({ suppressed: false, loadImage: async () => {} });
  const navigate = vi.fn();
  await sender.sendThenNavigate({ beaconType: "userevent", beaconId: "outbound" }, navigate);
  expect(navigate).toHaveBeenCalledTimes(1);
});

test("an outbound link waits at most 500 ms for a slow beacon", async () => {
  vi.useFakeTimers();
  const sender = createBeaconSender({ suppressed: false, loadImage: () => new Promise<void>(() => {}) });
  const navigate = vi.fn();
  const done = sender.sendThenNavigate({ beaconType: "userevent", beaconId: "outbound" }, navigate);
  await vi.advanceTimersByTimeAsync(outboundBeaconWaitMs - 1);
  expect(navigate).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  await done;
  expect(navigate).toHaveBeenCalledTimes(1);
});

test("a page not complete within 2500 ms sends a navigation-timeout error statistic", async () => {
  vi.useFakeTimers();
  const images = recorder();
  const sender = createBeaconSender({ suppressed: false, loadImage: images.loadImage });
  watchNavigation(sender, { screenname: "track", path: "/track/1" });
  await vi.advanceTimersByTimeAsync(navigationTimeoutMs - 1);
  expect(images.urls).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(images.urls).toHaveLength(1);
  expect(images.urls[0]).toContain("/services/metrics/web.error/");
  expect(queryOf(images.urls[0])).toMatchObject({
    beaconType: "error",
    beaconId: "global.navigation-timeout",
    errorcode: "timeout",
    path: "/track/1",
    timespent: "2500",
  });
});

test.each([
  { name: "complete() was called", complete: true, isComplete: false },
  { name: "the page reports itself complete", complete: false, isComplete: true },
])("no navigation-timeout statistic when $name", async ({ complete, isComplete }) => {
  vi.useFakeTimers();
  const images = recorder();
  const sender = createBeaconSender({ suppressed: false, loadImage: images.loadImage });
  const watch = watchNavigation(sender, { screenname: "home", isComplete: () => isComplete });
  await vi.advanceTimersByTimeAsync(1000);
  if (complete) watch.complete();
  await vi.advanceTimersByTimeAsync(navigationTimeoutMs * 2);
  expect(images.urls).toEqual([]);
});
