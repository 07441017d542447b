import { afterEach, describe, expect, test, vi } from "vitest";
import { installBridge } from "#app/bridge/browser/bridge.ts";
import {
  deepLinkNavigationDelayMs,
  deepLinkUrl,
  followDeepLink,
  inAppSupportNotice,
  interceptDeepLinks,
  type LinkClick,
  membershipOf,
  showsUpsell,
  userFlagsOf,
} from "#app/bridge/browser/in-app.ts";
import { installFakeAppHost } from "#tests/e2e/fake-app-hosts.ts";

afterEach(() => {
  vi.useRealTimers();
});

const androidUa =
  "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36";

test.each([
  ["member", { member: true, reason: undefined }],
  ["nonmember_expired", { member: false, reason: "expired" }],
  ["nonmember_never_subscribed", { member: false, reason: "never_subscribed" }],
  [undefined, { member: false, reason: undefined }],
  ["members", { member: false, reason: undefined }],
])("membership flag %s", (flag, membership) => {
  expect(membershipOf(flag)).toEqual(membership);
});

describe("upsell (spec 000 §4: only in the app, neither connected nor a member)", () => {
  test.each([
    [true, false, false, true],
    [true, true, false, false],
    [true, false, true, false],
    [true, true, true, false],
    [false, false, false, false],
    [false, true, false, false],
    [false, false, true, false],
    [false, true, true, false],
  ])("in app %s, connected %s, member %s: shown %s", (inApp, connected, member, shown) => {
    expect(showsUpsell({ inApp, connected, member })).toBe(shown);
  });

  test("the user object follows the app's member flag from about-bridge", async () => {
    const win: Record<string, unknown> = {};
    installFakeAppHost(win, {
      platform: "ios",
      about: { os: { APILevel: 17 }, client: { version: "15.0" }, appleMusicMembership: "nonmember_expired" },
    });
    const bridge = installBridge(win, { log: vi.fn() });
    // The fake host answers the handshake on a timer: wait for its about-bridge answer.
    await new Promise<void>((resolve) => bridge.onAbout(() => resolve()));
    expect(userFlagsOf({ inApp: bridge.isSupported(), connected: false, about: bridge.about() })).toEqual({
      appleMusicMembership: "nonmember_expired",
      connected: false,
      showUpsell: "trial",
      offer: undefined,
    });
  });

  test.each([
    ["a member in the app", { inApp: true, connected: false, flag: "member" }, false],
    ["a non-member in the app", { inApp: true, connected: false, flag: "nonmember_x" }, "trial"],
    ["a connected non-member in the app", { inApp: true, connected: true, flag: "nonmember_x" }, false],
    ["the website, whatever it is told", { inApp: false, connected: false, flag: "nonmember_x" }, false],
  ])("user flags of %s", (_, input, showUpsell) => {
    const about = { os: { APILevel: 30 }, client: { version: "14.0" }, appleMusicMembership: input.flag };
    expect(userFlagsOf({ inApp: input.inApp, connected: input.connected, about }).showUpsell).toBe(
      showUpsell,
    );
  });

  test.each([
    [
      "a redemption of a named offer",
      { showUpsell: "redemption", offer: "first-month" },
      "redemption",
      "first-month",
    ],
    ["a redemption with no offer to redeem: a trial", { showUpsell: "redemption" }, "trial", undefined],
    ["a trial, whatever offer is named", { showUpsell: "trial", offer: "first-month" }, "trial", undefined],
    ["nothing said: a trial", {}, "trial", undefined],
    [
      "a member: none",
      { showUpsell: "redemption", offer: "first-month", appleMusicMembership: "member" },
      false,
      undefined,
    ],
  ] as const)("the upsell of %s", (_, said, showUpsell, offer) => {
    const about = { os: { APILevel: 30 }, client: { version: "14.0" }, ...said };
    expect(userFlagsOf({ inApp: true, connected: false, about })).toMatchObject({ showUpsell, offer });
  });
});

test.each([
  ["a current app", { os: { APILevel: 30 }, client: { version: "14.2.0" } }, undefined],
  ["Android API 20", { os: { APILevel: 20 }, client: { version: "14.2.0" } }, "osupgrade"],
  ["app 7.2.9", { os: { APILevel: 30 }, client: { version: "7.2.9" } }, "appupgrade"],
])("environment check from about-bridge: %s", (_, about, notice) => {
  expect(inAppSupportNotice(about, { userAgent: androidUa })).toBe(notice);
});

describe("deep links (spec 002 §5, §9)", () => {
  test.each([
    ["https://music.apple.com/gb/album/x/1?i=2", "https://music.apple.com/gb/album/x/1?i=2&app=music"],
    ["https://geo.music.apple.com/us/song/3", "https://geo.music.apple.com/us/song/3?app=music"],
    ["http://itunes.apple.com/gb/album/4", "https://itunes.apple.com/gb/album/4?app=itunes"],
    ["https://ITUNES.apple.com/gb/album/4?app=music", "https://itunes.apple.com/gb/album/4?app=itunes"],
    ["https://open.spotify.com/track/5", undefined],
    ["https://music.apple.com.evil.example/x", undefined],
    ["https://www.tunewave.example/track/1", undefined],
    ["javascript:alert(1)", undefined],
    ["/track/1", undefined],
  ])("%s becomes %s", (href, replaced) => {
    expect(deepLinkUrl(href)).toBe(replaced);
  });

  test("in the app the deep link is followed after the 500 ms delay, the beacon first", () => {
    vi.useFakeTimers();
    const assign = vi.fn();
    const sendBeacon = vi.fn();
    expect(followDeepLink("https://music.apple.com/gb/song/1", { inApp: true, assign, sendBeacon })).toBe(
      true,
    );
    expect(sendBeacon).toHaveBeenCalledWith("https://music.apple.com/gb/song/1");
    vi.advanceTimersByTime(deepLinkNavigationDelayMs - 1);
    expect(assign).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(assign).toHaveBeenCalledWith("https://music.apple.com/gb/song/1?app=music");
  });

  test.each([
    ["on the website", false, "https://music.apple.com/gb/song/1"],
    ["for another host", true, "https://open.spotify.com/track/1"],
  ])("nothing is replaced %s", (_, inApp, href) => {
    vi.useFakeTimers();
    const assign = vi.fn();
    expect(followDeepLink(href, { inApp, assign })).toBe(false);
    vi.runAllTimers();
    expect(assign).not.toHaveBeenCalled();
  });

  function clickOn(href: string | undefined, overrides: Partial<LinkClick> = {}): LinkClick {
    const anchor = href === undefined ? null : { href };
    return {
      target: { closest: (selector: string) => (selector === "a[href]" ? anchor : null) },
      defaultPrevented: false,
      button: 0,
      metaKey: false,
      ctrlKey: false,
      shiftKey: false,
      altKey: false,
      preventDefault: vi.fn(),
      ...overrides,
    };
  }

  function documentWithLinks() {
    let listener: ((event: LinkClick) => void) | undefined;
    return {
      source: {
        addEventListener: (_: "click", added: (event: LinkClick) => void) => {
          listener = added;
        },
        removeEventListener: vi.fn(),
      },
      click: (event: LinkClick) => listener?.(event),
    };
  }

  test.each([
    ["a plain click on a store link", clickOn("https://itunes.apple.com/gb/album/4"), true],
    ["a click on another link", clickOn("https://example.com/"), false],
    ["a click outside links", clickOn(undefined), false],
    ["a ctrl-click", clickOn("https://itunes.apple.com/gb/album/4", { ctrlKey: true }), false],
    ["a middle click", clickOn("https://itunes.apple.com/gb/album/4", { button: 1 }), false],
    [
      "an already handled click",
      clickOn("https://itunes.apple.com/gb/album/4", { defaultPrevented: true }),
      false,
    ],
  ])("%s is taken over: %s", (_, event, takenOver) => {
    vi.useFakeTimers();
    const page = documentWithLinks();
    const assign = vi.fn();
    interceptDeepLinks(page.source, { inApp: true, assign });
    page.click(event);
    vi.advanceTimersByTime(deepLinkNavigationDelayMs);
    expect(event.preventDefault).toHaveBeenCalledTimes(takenOver ? 1 : 0);
    expect(assign).toHaveBeenCalledTimes(takenOver ? 1 : 0);
  });

  test("a second click while the delay runs navigates once", () => {
    vi.useFakeTimers();
    const page = documentWithLinks();
    const assign = vi.fn();
    interceptDeepLinks(page.source, { inApp: true, assign });
    const first = clickOn("https://music.apple.com/gb/song/1");
    const second = clickOn("https://music.apple.com/gb/song/1");
    page.click(first);
    vi.advanceTimersByTime(100);
    page.click(second);
    vi.advanceTimersByTime(deepLinkNavigationDelayMs * 2);
    expect(second.preventDefault).toHaveBeenCalled();
    expect(assign).toHaveBeenCalledTimes(1);
  });

  test("outside the app clicks are left alone", () => {
    const page = documentWithLinks();
    const assign = vi.fn();
    interceptDeepLinks(page.source, { inApp: false, assign });
    const event = clickOn("https://music.apple.com/gb/song/1");
    page.click(event);
    expect(event.preventDefault).not.toHaveBeenCalled();
  });
});
