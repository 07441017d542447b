import { afterEach, describe, expect, test, vi } from "vitest";
import { findAppHost } from "#app/bridge/browser/app-host.ts";
import {
  type Bridge,
  bridgeQueueLimit,
  bridgeRequestTimeoutMs,
  installBridge,
} from "#app/bridge/browser/bridge.ts";
import {
  type AppCommandHost,
  beaconOverBridge,
  openNewWebView,
  registerAppCommands,
} from "#app/bridge/browser/bridge-commands.ts";
import { createBeaconSender } from "#app/shell/browser/beacons.ts";
import { websiteBridge } from "#app/shell/browser/runtime.ts";
import { SiteError } from "#rules/errors.ts";
import { type FakeAppHostOptions, installFakeAppHost } from "#tests/e2e/fake-app-hosts.ts";

const platforms = ["ios", "android"] as const;

const about = { os: { name: "android", APILevel: "30" }, client: { version: "14.2.0" }, country: "de" };
const handshake = { type: "aboutBridge", data: { protocol: 1 }, responseType: "aboutBridge" };

afterEach(() => {
  vi.useRealTimers();
});

/** A page in the app: a window with the fake host object and the installed bridge. */
function pageInApp(options: FakeAppHostOptions) {
  const win: Record<string, unknown> = {};
  const host = installFakeAppHost(win, options);
  const log = vi.fn();
  const bridge = installBridge(win, { log });
  return { win, host, bridge, log, sent: host.__bridgeSent, deliver: host.__bridgeDeliver };
}

/** Resolves once the app's about-bridge answer has arrived (the fake host answers on a timer). */
function native(bridge: Bridge): Promise<void> {
  return new Promise((resolve) => bridge.onAbout(() => resolve()));
}

function commandHost(overrides: Partial<AppCommandHost> = {}) {
  return {
    langKey: "de",
    hasTrackView: () => true,
    navigate: vi.fn(),
    setParentLocation: vi.fn(),
    openPopup: vi.fn(),
    ...overrides,
  } satisfies AppCommandHost;
}

describe.each(platforms)("transport on %s", (platform) => {
  test("finds the platform's host object and sends the handshake first, unqueued", () => {
    const { bridge, sent } = pageInApp({ platform });
    expect(bridge.platform).toBe(platform);
    expect(bridge.isSupported()).toBe(true);
    expect(bridge.isNative()).toBe(false);
    expect(sent).toEqual([handshake]);
  });

  test("becomes native on the about-bridge answer and keeps its data, normalised", async () => {
    const { bridge } = pageInApp({ platform, about });
    const seen = vi.fn();
    bridge.onAbout(seen);
    await native(bridge);
    expect(bridge.isNative()).toBe(true);
    expect(bridge.about()).toEqual({
      os: { name: "android", APILevel: 30 },
      client: { version: "14.2.0" },
      country: "DE",
    });
    expect(seen).toHaveBeenCalledTimes(1);
  });

  test("queues everything sent before about-bridge and flushes it in order", async () => {
    const { bridge, sent, deliver } = pageInApp({ platform });
    const webView = bridge.request("newWebView", { url: "https://example.com/a", title: "A" });
    bridge.notify("beacon", { route: "web.pageview.home", time: 1, params: { beaconType: "pageview" } });
    const scheme = bridge.request("isSchemeSupported", { scheme: "music" });
    expect(sent).toEqual([handshake]);

    deliver({ type: "aboutBridge", data: about });
    expect(sent.map((message) => message.type)).toEqual([
      "aboutBridge",
      "newWebView",
      "beacon",
      "isSchemeSupported",
    ]);
    expect(sent[1]).toEqual({
      type: "newWebView",
      data: { url: "https://example.com/a", title: "A" },
      responseType: "newWebView#1",
    });
    expect(sent[3]).toEqual({
      type: "isSchemeSupported",
      data: { scheme: "music" },
      responseType: "isSchemeSupported#2",
    });

    deliver({ type: "isSchemeSupported#2", data: { supported: true } });
    deliver({ type: "newWebView#1" });
    await expect(scheme).resolves.toEqual({ supported: true });
    await expect(webView).resolves.toBeUndefined();

    bridge.notify("beacon", { route: "web.userevent.home", time: 2, params: {} });
    expect(sent.at(-1)).toEqual({
      type: "beacon",
      data: { route: "web.userevent.home", time: 2, params: {} },
    });
  });

  test("a malformed about-bridge is refused and the bridge stays queued", () => {
    const { bridge, sent, deliver, log } = pageInApp({ platform });
    bridge.notify("beacon", { route: "web.pageview.home", time: 1, params: {} });
    expect(() => deliver({ type: "aboutBridge", data: { os: { APILevel: 30 } } })).not.toThrow();
    expect(bridge.isNative()).toBe(false);
    expect(sent.at(-1)).toMatchObject({ type: "aboutBridge", error: "malformed" });
    expect(sent.map((message) => message.type)).not.toContain("beacon");
    expect(log).toHaveBeenCalled();
  });
});

describe("the website (no host object)", () => {
  // The runtime uses `websiteBridge` where findAppHost finds nothing; it must answer as the bridge does.
  const withoutHost: [string, () => Bridge][] = [
    ["the bridge installed without a host", () => installBridge({}, { log: vi.fn() })],
    ["the website's bridge", () => websiteBridge],
  ];
  test.each(withoutHost)(
    "%s is not supported: requests fail with 'No bridge support', notifications are not sent",
    async (_, make) => {
      const bridge = make();
      expect(bridge.platform).toBeUndefined();
      expect(bridge.isSupported()).toBe(false);
      expect(bridge.isNative()).toBe(false);
      expect(bridge.about()).toBeUndefined();
      await expect(bridge.request("isSchemeSupported", { scheme: "music" })).rejects.toMatchObject({
        type: "unsupported",
        message: "No bridge support",
      });
      expect(bridge.notify("beacon", { route: "web.pageview.home", time: 1, params: {} })).toBe(false);
    },
  );

  test("no host object is found on a plain window", () => {
    expect(findAppHost({})).toBeUndefined();
    expect(findAppHost({ webkit: { messageHandlers: {} } })).toBeUndefined();
    expect(findAppHost({ TunewaveAndroid: { postMessage: () => undefined } })?.platform).toBe("android");
  });

  test("installing touches nothing but the entry point, and dispose removes it", () => {
    const win: Record<string, unknown> = {};
    const bridge = installBridge(win);
    expect(Object.keys(win)).toEqual(["tunewaveBridge"]);
    bridge.dispose();
    expect(Object.keys(win)).toEqual([]);
  });
});

describe("requests and replies", () => {
  const answered = {
    platform: "ios",
    about,
    replies: {
      newWebView: {},
      trackResult: { data: { ignored: true } },
      startIntents: { data: { started: true } },
      isSchemeSupported: { data: { supported: false } },
    },
  } satisfies FakeAppHostOptions;

  test("every request type sends its data and reads its reply", async () => {
    const { bridge, sent } = pageInApp(answered);
    await native(bridge);
    await expect(openNewWebView(bridge, "https://example.com/terms", "Terms")).resolves.toBeUndefined();
    await expect(bridge.request("trackResult", { trackId: "12345", key: "678" })).resolves.toBeUndefined();
    await expect(
      bridge.request("startIntents", { intents: [{ url: "spotify:track:1", package: "com.spotify.music" }] }),
    ).resolves.toEqual({ started: true });
    await expect(bridge.request("isSchemeSupported", { scheme: "Music" })).resolves.toEqual({
      supported: false,
    });
    expect(sent.slice(1)).toEqual([
      {
        type: "newWebView",
        data: { url: "https://example.com/terms", title: "Terms" },
        responseType: "newWebView#1",
      },
      { type: "trackResult", data: { trackId: "12345", key: "678" }, responseType: "trackResult#2" },
      {
        type: "startIntents",
        data: { intents: [{ url: "spotify:track:1", package: "com.spotify.music" }] },
        responseType: "startIntents#3",
      },
      { type: "isSchemeSupported", data: { scheme: "music" }, responseType: "isSchemeSupported#4" },
    ]);
  });

  test.each([
    ["no title", { url: "https://example.com/" }],
    ["empty title", { url: "https://example.com/", title: "  " }],
    ["no url", { title: "Terms" }],
    ["not an http url", { url: "javascript:alert(1)", title: "Terms" }],
  ])("newWebView with %s fails with invalidparam and sends nothing", async (_, data) => {
    const { bridge, sent } = pageInApp(answered);
    await native(bridge);
    await expect(bridge.request("newWebView", data as { url: string; title: string })).rejects.toMatchObject({
      type: "invalidparam",
    });
    expect(sent).toHaveLength(1);
  });

  test.each([
    ["unsupported", "unsupported"],
    ["malformed", "baddata"],
    ["notfound", "notfound"],
    ["something-else", "serviceerror"],
  ])("an error reply %s rejects with %s", async (code, type) => {
    const { bridge } = pageInApp({
      ...answered,
      replies: { isSchemeSupported: { error: code, data: { message: "m" } } },
    });
    await native(bridge);
    const failure = await bridge
      .request("isSchemeSupported", { scheme: "music" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SiteError);
    expect(failure).toMatchObject({ type, message: "m" });
  });

  test.each([
    ["data of the wrong shape", { type: "isSchemeSupported#1", data: { supported: "yes" } }],
    ["no data", { type: "isSchemeSupported#1" }],
    ["a broken envelope", { type: "isSchemeSupported#1", error: 42 }],
  ])("a reply with %s rejects with baddata and is not answered", async (_, reply) => {
    const { bridge, sent, deliver, log } = pageInApp({ platform: "android", about });
    await native(bridge);
    const pending = bridge.request("isSchemeSupported", { scheme: "music" });
    const before = sent.length;
    deliver(reply);
    await expect(pending).rejects.toMatchObject({ type: "baddata" });
    expect(sent).toHaveLength(before);
    expect(log).toHaveBeenCalled();
  });

  test("a request the app never answers times out", async () => {
    vi.useFakeTimers();
    const { bridge } = pageInApp({ platform: "ios", about });
    await vi.advanceTimersByTimeAsync(0);
    const pending = bridge.request("isSchemeSupported", { scheme: "music" });
    const outcome = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(bridgeRequestTimeoutMs - 1);
    expect(bridge.isNative()).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ type: "timeout" });
  });

  test("a late or unknown reply is dropped without an answer", async () => {
    const { bridge, sent, deliver, log } = pageInApp({ platform: "ios", about });
    await native(bridge);
    const before = sent.length;
    deliver({ type: "isSchemeSupported#99", data: { supported: true } });
    expect(sent).toHaveLength(before);
    expect(log).toHaveBeenCalledWith(expect.stringContaining("no pending request"));
  });

  test("dispose fails pending requests with abort", async () => {
    const { bridge } = pageInApp({ platform: "android" });
    const pending = bridge.request("isSchemeSupported", { scheme: "music" });
    bridge.dispose();
    await expect(pending).rejects.toMatchObject({ type: "abort" });
  });

  test("a host that throws fails the request instead of the page", async () => {
    const win: Record<string, unknown> = {
      TunewaveAndroid: {
        postMessage(json: string) {
          if (!json.includes("aboutBridge")) throw new Error("interface gone");
        },
      },
    };
    const bridge = installBridge(win, { log: vi.fn() });
    bridge.receive(JSON.stringify({ type: "aboutBridge", data: about }));
    await expect(bridge.request("isSchemeSupported", { scheme: "music" })).rejects.toMatchObject({
      type: "serviceerror",
    });
  });

  test("the queue before about-bridge is bounded: the oldest message is dropped", async () => {
    const { bridge, sent, deliver } = pageInApp({ platform: "ios" });
    const first = bridge.request("isSchemeSupported", { scheme: "first" });
    for (let index = 0; index < bridgeQueueLimit; index += 1) {
      bridge.notify("beacon", { route: "web.userevent.home", time: index, params: {} });
    }
    await expect(first).rejects.toMatchObject({ type: "limitexceeded" });
    deliver({ type: "aboutBridge", data: about });
    expect(sent.filter((message) => message.type === "beacon")).toHaveLength(bridgeQueueLimit);
    expect(sent.some((message) => message.type === "isSchemeSupported")).toBe(false);
  });
});

describe("unsupported and malformed app messages", () => {
  test.each(platforms)("an unknown command answers unsupported with its responseType (%s)", (platform) => {
    const { sent, deliver } = pageInApp({ platform });
    deliver({ type: "openWallet", data: {}, responseType: "openWallet.r1" });
    expect(sent.at(-1)).toEqual({
      type: "openWallet.r1",
      error: "unsupported",
      data: { message: "Unsupported command openWallet" },
    });
  });

  test("without a responseType the unsupported answer carries the command's type", () => {
    const { sent, deliver } = pageInApp({ platform: "ios" });
    deliver({ type: "openWallet" });
    expect(sent.at(-1)).toMatchObject({ type: "openWallet", error: "unsupported" });
  });

  test("a known command with no handler on this page is unsupported", () => {
    const { sent, deliver } = pageInApp({ platform: "android" });
    deliver({ type: "trackResult", data: { trackId: "1" }, responseType: "t1" });
    expect(sent.at(-1)).toMatchObject({ type: "t1", error: "unsupported" });
  });

  test.each([
    ["not JSON", "{type:", "error"],
    ["a JSON array", "[1,2]", "error"],
    ["a JSON number", "42", "error"],
    ["a type that is not a string", JSON.stringify({ type: 5 }), "error"],
    ["no type", JSON.stringify({ data: {} }), "error"],
    ["a type with spaces", JSON.stringify({ type: "track result" }), "error"],
    [
      "an error that is not a string",
      JSON.stringify({ type: "trackResult", error: 7, responseType: "r9" }),
      "r9",
    ],
    [
      "track result data of the wrong shape",
      JSON.stringify({ type: "trackResult", data: { trackId: "../x" } }),
      "trackResult",
    ],
    [
      "a share sheet without share data",
      JSON.stringify({ type: "shareSheet", data: {}, responseType: "s1" }),
      "s1",
    ],
  ])("%s is refused with a malformed answer, never thrown", (_, raw, replyType) => {
    const { bridge, sent, deliver, log } = pageInApp({ platform: "ios" });
    registerAppCommands(bridge, commandHost());
    expect(() => deliver(raw)).not.toThrow();
    expect(sent.at(-1)).toMatchObject({ type: replyType, error: "malformed" });
    expect(log).toHaveBeenCalledWith(expect.stringContaining("malformed"), expect.anything());
  });

  test("values that are not strings or objects reach receive without throwing", () => {
    const { bridge } = pageInApp({ platform: "android" });
    for (const raw of [undefined, null, 3, true, Symbol("x")])
      expect(() => bridge.receive(raw)).not.toThrow();
  });

  test("an already parsed object is accepted as well as a JSON string", () => {
    const { bridge } = pageInApp({ platform: "ios" });
    bridge.receive({ type: "aboutBridge", data: about });
    expect(bridge.isNative()).toBe(true);
  });
});

describe("commands from the app", () => {
  function pageWithCommands(overrides: Partial<AppCommandHost> = {}) {
    const page = pageInApp({ platform: "ios", about });
    const host = commandHost(overrides);
    const unregister = registerAppCommands(page.bridge, host);
    return { ...page, host, unregister };
  }

  test("track result navigates in-page to the language-prefixed track when a track view exists", () => {
    const { host, sent, deliver } = pageWithCommands();
    deliver({ type: "trackResult", data: { trackId: "40333609" }, responseType: "tr1" });
    expect(host.navigate).toHaveBeenCalledWith("/de/track/40333609");
    expect(host.setParentLocation).not.toHaveBeenCalled();
    expect(sent.at(-1)).toEqual({ type: "tr1" });
  });

  test("track result sets the parent location when there is no track view", () => {
    const { host, deliver } = pageWithCommands({ hasTrackView: () => false, langKey: "en" });
    deliver({ type: "trackResult", data: { trackId: "40333609" } });
    expect(host.setParentLocation).toHaveBeenCalledWith("/track/40333609");
    expect(host.navigate).not.toHaveBeenCalled();
  });

  test.each([
    ["with a screen name", "track", "/pt-br/share/track"],
    ["without a screen name", undefined, "/pt-br/share"],
  ])("share sheet opens a full-screen pop-up %s", (_, screenname, path) => {
    const { host, deliver } = pageWithCommands({ langKey: "pt-br" });
    const share = { href: "https://www.tunewave.example/track/1", title: "Song", subtitle: "Artist" };
    deliver({ type: "shareSheet", data: { screenname, share } });
    expect(host.openPopup).toHaveBeenCalledWith({ path, fullscreen: true, data: share });
  });

  test("foreground retagging restarts the tag tracker with the new tag context", () => {
    const tagTracker = { start: vi.fn(), background: vi.fn(), foreground: vi.fn() };
    const { sent, deliver } = pageWithCommands({ tagTracker });
    const context = { timestamp: 5000, tagtimestamp: 4000, offset: 1000, trackid: "77" };
    deliver({ type: "foregroundRetag", data: context, responseType: "fr1" });
    expect(tagTracker.start).toHaveBeenCalledWith({
      ...context,
      sessionStart: 3000,
      timeskew: 0,
      frequencyskew: 0,
      isNative: true,
    });
    expect(sent.at(-1)).toEqual({ type: "fr1" });
  });

  test.each([
    ["background", "background"],
    ["foreground", "foreground"],
  ] as const)("view state %s goes to the tag tracker", (state, method) => {
    const tagTracker = { start: vi.fn(), background: vi.fn(), foreground: vi.fn() };
    const { deliver } = pageWithCommands({ tagTracker });
    deliver({ type: "viewState", data: { state } });
    expect(tagTracker[method]).toHaveBeenCalledTimes(1);
  });

  test("tagging commands are unsupported on a page without a tag tracker", () => {
    const { sent, deliver } = pageWithCommands();
    deliver({
      type: "foregroundRetag",
      data: { timestamp: 1, tagtimestamp: 1, offset: 0, trackid: "1" },
      responseType: "x1",
    });
    expect(sent.at(-1)).toMatchObject({ type: "x1", error: "unsupported" });
  });

  test("a failing command answers with its error type", async () => {
    const { sent, deliver } = pageWithCommands({
      navigate: () => {
        throw new SiteError("notfound", "no such track");
      },
    });
    deliver({ type: "trackResult", data: { trackId: "1" }, responseType: "tr2" });
    expect(sent.at(-1)).toEqual({ type: "tr2", error: "notfound", data: { message: "no such track" } });
  });

  test("an asynchronous handler answers when it settles", async () => {
    const { bridge, sent, deliver } = pageInApp({ platform: "android" });
    bridge.handle("viewState", async () => ({ resumed: true }));
    deliver({ type: "viewState", data: { state: "foreground" }, responseType: "v1" });
    await vi.waitFor(() => expect(sent.at(-1)).toEqual({ type: "v1", data: { resumed: true } }));
  });

  test("unregistering makes the commands unsupported again", () => {
    const { sent, deliver, unregister } = pageWithCommands();
    unregister();
    deliver({
      type: "shareSheet",
      data: { share: { href: "https://a.example/", title: "T" } },
      responseType: "s2",
    });
    expect(sent.at(-1)).toMatchObject({ type: "s2", error: "unsupported" });
  });
});

describe("beacons over the bridge", () => {
  function beaconSender(bridge: Bridge, loadImage = vi.fn(async () => {})) {
    return createBeaconSender({
      suppressed: false,
      sendOverBridge: beaconOverBridge(bridge),
      loadImage,
      now: () => 1_700_000_000_000,
      timeZone: () => "Europe/Berlin",
    });
  }

  test.each(platforms)("a beacon is a bridge message, not an image (%s)", async (platform) => {
    const { bridge, sent } = pageInApp({ platform, about });
    await native(bridge);
    const loadImage = vi.fn(async () => {});
    const outcome = await beaconSender(bridge, loadImage).send({
      beaconType: "pageview",
      screenname: "home",
    });
    expect(outcome).toBe("sent");
    expect(loadImage).not.toHaveBeenCalled();
    expect(sent.at(-1)).toEqual({
      type: "beacon",
      data: {
        route: "web.pageview.home",
        time: 1_700_000_000_000,
        params: { beaconType: "pageview", screenname: "home" },
      },
    });
  });

  test("beacons before about-bridge wait in the queue", async () => {
    const { bridge, sent, deliver } = pageInApp({ platform: "android" });
    await beaconSender(bridge).send({ beaconType: "userevent", beaconId: "search.open" });
    expect(sent.some((message) => message.type === "beacon")).toBe(false);
    deliver({ type: "aboutBridge", data: about });
    expect(sent.at(-1)).toMatchObject({ type: "beacon", data: { params: { beaconId: "search.open" } } });
  });

  test("without an app host the bridge transport fails, so the sender reports it", async () => {
    const bridge = installBridge({}, { log: vi.fn() });
    expect(await beaconSender(bridge).send({ beaconType: "pageview", screenname: "home" })).toBe("failed");
  });
});
