import { describe, expect, test, vi } from "vitest";
import type { LinkClick } from "#app/bridge/browser/in-app.ts";
import { previewQuery } from "#app/concerts/events.server.ts";
import { createBeaconSender } from "#app/shell/browser/beacons.ts";
import { dnsHealthId, dnsHealthPath, reportDnsHealth } from "#app/shell/browser/health.ts";
import { interceptOutboundLinks, outboundHost } from "#app/shell/browser/outbound.ts";
import { readHashParams } from "#rules/address-params.ts";
import {
  type BeaconParams,
  buildBeacon,
  metricRoute,
  requestErrorStatistics,
  visitBeaconParams,
} from "#rules/beacon-params.ts";
import { deviceModelOf, namesKnownSystem } from "#rules/user-agent.ts";

/** Spec 000 §2 "Hash parameters use key=value pairs separated by semicolons". */
describe("readHashParams", () => {
  const cases: [hash: string, expected: Record<string, unknown>][] = [
    ["", {}],
    ["#lyrics", {}],
    ["#refid=partner-7", { refid: "partner-7" }],
    ["#refid=a;referrer=com.example.app", { refid: "a", referrer: "com.example.app" }],
    ["refid=no-hash-sign", { refid: "no-hash-sign" }],
    ["#stats-window-listener=1;nohf=true", { "stats-window-listener": true, nohf: true }],
    ["#referrer=https%3A%2F%2Fexample.com", { referrer: "https://example.com" }],
    ["#refid=first;refid=second", { refid: "first" }],
    // The same schemas as the query: a value that fails its schema is dropped.
    ["#refid=<script>;lang=de", { lang: "de" }],
    ["#refid=%E0%A4%A", {}],
    ["#=x;refid", {}],
    [`#refid=${"a".repeat(2000)}`, {}],
  ];
  test.each(cases)("%s", (hash, expected) => {
    const read = readHashParams(hash);
    const given = Object.fromEntries(Object.entries(read).filter(([, value]) => value !== undefined));
    expect(given).toEqual(expected);
  });
});

describe("visitBeaconParams: refid and referrer on every beacon", () => {
  const cases: [name: string, query: object, hash: object, expected: BeaconParams][] = [
    ["nothing", {}, {}, { refid: undefined, deeplinkreferrer: undefined }],
    ["query", { refid: "q", referrer: "app" }, {}, { refid: "q", deeplinkreferrer: "app" }],
    ["hash", {}, { refid: "h", referrer: "mail" }, { refid: "h", deeplinkreferrer: "mail" }],
    [
      "query wins",
      { refid: "q" },
      { refid: "h", referrer: "mail" },
      { refid: "q", deeplinkreferrer: "mail" },
    ],
  ];
  test.each(cases)("%s", (_name, query, hash, expected) => {
    expect(visitBeaconParams(query, hash)).toEqual(expected);
  });

  test("they and the app fields reach the beacon's query, sanitised", () => {
    const built = buildBeacon({
      beaconType: "pageview",
      refid: "Partner-7",
      deeplinkreferrer: "com.Example.App",
      appname: "web",
      appver: "7.3.1",
      country: "DE",
      devicemodel: "SM-G991B",
    });
    expect(built.query).toMatchObject({
      refid: "Partner-7",
      deeplinkreferrer: "comexampleapp",
      appname: "web",
      appver: "7.3.1",
      country: "DE",
      devicemodel: "sm-g991b",
    });
    expect(buildBeacon({ beaconType: "pageview", country: "de/x" }).query.country).toBeUndefined();
  });
});

const chrome =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const iphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const samsung =
  "Mozilla/5.0 (Linux; Android 13; SM-G991B Build/TP1A.220624.014) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36";
const reducedAndroid =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const pixel = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0";

test.each([
  [iphone, 0, "iPhone"],
  ["Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X)", 0, "iPad"],
  ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15", 5, "iPad"],
  ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15", 0, undefined],
  [samsung, 0, "SM-G991B"],
  [pixel, 0, "Pixel 8"],
  [reducedAndroid, 0, undefined],
  [chrome, 0, undefined],
])("deviceModelOf(%s, %i) is %s", (agent, touchPoints, model) => {
  expect(deviceModelOf(agent, touchPoints)).toBe(model);
});

describe("requestErrorStatistics (spec 000 §8)", () => {
  const page = { screenname: "track", path: "/track/1/a" };
  const cases: [name: string, isBot: boolean, countryUnknown: boolean, agent: string, ids: string[]][] = [
    ["a person, known system and country", false, false, chrome, []],
    ["an unknown country", false, true, chrome, ["global.unknown-country"]],
    [
      "an agent naming no system",
      false,
      false,
      "Mozilla/5.0 (Fuchsia) AppleWebKit/537.36 Chrome/126.0",
      ["global.unknown-platform"],
    ],
    ["no agent at all", false, false, "", ["global.unknown-platform"]],
    [
      "both",
      false,
      true,
      "Mozilla/5.0 (Fuchsia) AppleWebKit/537.36 Chrome/126.0",
      ["global.unknown-platform", "global.unknown-country"],
    ],
    ["a bot counts once, as a bot", true, true, "Googlebot/2.1", ["global.bot"]],
    ["a bot with a system", true, false, chrome, ["global.bot"]],
  ];
  test.each(cases)("%s", (_name, isBot, countryUnknown, userAgent, ids) => {
    const statistics = requestErrorStatistics({ isBot, countryUnknown, userAgent, ...page });
    expect(statistics.map((params) => params.beaconId)).toEqual(ids);
    for (const params of statistics) {
      const built = buildBeacon(params);
      expect(built.query).toMatchObject({ beaconType: "error", screenname: "track", path: "/track/1/a" });
      expect(metricRoute(built, { isBot })).toBe(isBot ? "web.error.bot" : "web.error");
    }
  });

  test.each([
    [chrome, true],
    [iphone, true],
    [samsung, true],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64)", true],
    ["Mozilla/5.0 (X11; CrOS x86_64 14541.0.0)", true],
    ["Mozilla/5.0 (Fuchsia) AppleWebKit/537.36 Chrome/126.0", false],
    ["", false],
  ])("namesKnownSystem(%s) is %s", (agent, known) => {
    expect(namesKnownSystem(agent)).toBe(known);
  });
});

describe("outbound links wait for their beacon (spec 000 §7)", () => {
  const origin = "https://www.tunewave.test";
  test.each([
    ["https://music.apple.com/album/1", "music.apple.com"],
    ["http://open.spotify.com/track/x", "open.spotify.com"],
    [`${origin}/charts`, undefined],
    ["mailto:someone@example.com", undefined],
    ["music://track/1", undefined],
    ["not a url", undefined],
  ])("outboundHost(%s) is %s", (href, host) => {
    expect(outboundHost(href, origin)).toBe(host);
  });

  type Listener = (event: LinkClick) => void;
  function clickOn(
    anchor: { href: string; target?: string; download?: boolean },
    extra: Partial<LinkClick> = {},
  ) {
    let listener: Listener | undefined;
    const source = {
      addEventListener: (_type: "click", added: Listener) => {
        listener = added;
      },
      removeEventListener: () => {},
    };
    const beacons = {
      send: vi.fn(async () => "sent" as const),
      sendThenNavigate: vi.fn(async (_params: BeaconParams, _navigate: () => void) => {}),
    };
    const assign = vi.fn();
    interceptOutboundLinks(source, { origin, beacons, assign });
    const element = {
      href: anchor.href,
      target: anchor.target ?? "",
      hasAttribute: (name: string) => name === "download" && anchor.download === true,
    };
    const event = {
      target: { closest: () => element },
      defaultPrevented: false,
      button: 0,
      metaKey: false,
      ctrlKey: false,
      shiftKey: false,
      altKey: false,
      preventDefault: vi.fn(),
      ...extra,
    };
    listener?.(event);
    return { beacons, assign, event };
  }

  test("a plain click on another site's link waits for the beacon, then leaves", async () => {
    const { beacons, event, assign } = clickOn({ href: "https://open.spotify.com/track/x" });
    expect(event.preventDefault).toHaveBeenCalled();
    expect(beacons.sendThenNavigate).toHaveBeenCalledWith(
      { beaconType: "userevent", beaconId: "outbound", providername: "open.spotify.com" },
      expect.any(Function),
    );
    beacons.sendThenNavigate.mock.calls[0]?.[1]();
    expect(assign).toHaveBeenCalledWith("https://open.spotify.com/track/x");
  });

  test.each([
    ["a new tab", { href: "https://music.apple.com/x", target: "_blank" }, {}],
    ["a download", { href: "https://music.apple.com/x", download: true }, {}],
    ["a modified click", { href: "https://music.apple.com/x" }, { metaKey: true }],
  ])("%s keeps this page: the beacon goes without waiting", (_name, anchor, extra) => {
    const { beacons, event } = clickOn(anchor, extra);
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(beacons.sendThenNavigate).not.toHaveBeenCalled();
    expect(beacons.send).toHaveBeenCalledTimes(1);
  });

  test.each([
    ["a link of the site", { href: `${origin}/charts` }, {}],
    ["an app link", { href: "music://track/1" }, {}],
    ["a click already handled", { href: "https://music.apple.com/x" }, { defaultPrevented: true }],
    ["a middle click", { href: "https://music.apple.com/x" }, { button: 1 }],
  ])("%s is left alone", (_name, anchor, extra) => {
    const { beacons, event } = clickOn(anchor, extra);
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(beacons.send).not.toHaveBeenCalled();
    expect(beacons.sendThenNavigate).not.toHaveBeenCalled();
  });
});

describe("the DNS health call (spec 000 §7) reports its status code", () => {
  test.each([
    ["healthy", async () => ({ status: 200 }), 200, undefined],
    ["failing", async () => ({ status: 503 }), 503, undefined],
    ["unreachable", async () => Promise.reject(new TypeError("Failed to fetch")), 0, "network"],
  ])("%s", async (_name, fetchHealth, status, errorcode) => {
    const asked: string[] = [];
    const send = vi.fn();
    const got = await reportDnsHealth(
      async (path) => {
        asked.push(path);
        return fetchHealth();
      },
      send,
      "chartsview",
    );
    expect(got).toBe(status);
    expect(asked).toEqual([dnsHealthPath]);
    expect(send).toHaveBeenCalledWith({
      beaconType: "userevent",
      beaconId: dnsHealthId,
      status_code: status,
      errorcode,
      screenname: "chartsview",
    });
  });
});

test("stats-window-listener: every delivered beacon is handed on; a failed one is not", async () => {
  const seen: string[] = [];
  let fail = false;
  const sender = createBeaconSender({
    suppressed: false,
    loadImage: async () => {
      if (fail) throw new Error("blocked");
    },
    onSent: (beacon) => seen.push(`${beacon.route}:${beacon.query.beaconId ?? ""}`),
    now: () => 1,
  });
  await sender.send({ beaconType: "pageview", screenname: "home" });
  fail = true;
  await sender.send({ beaconType: "userevent", beaconId: "outbound" });
  expect(seen).toEqual(["web.pageview.home:"]);
});

test.each([
  [undefined, {}],
  [false, {}],
  [true, { r: "abc" }],
])("previewQuery(%s): the random r of preview mode on event calls", (preview, expected) => {
  expect(previewQuery(preview, () => "abc")).toEqual(expected);
});

test("previewQuery draws a new r for each call", () => {
  expect(previewQuery(true).r).not.toBe(previewQuery(true).r);
});
