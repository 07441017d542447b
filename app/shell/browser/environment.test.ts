import * as v from "valibot";
import { expect, test } from "vitest";
import {
  aboutBridgeDataSchema,
  compareVersions,
  cookiesEnabled,
  describeBrowser,
  needsOrientationNotice,
  type OnlineEventTarget,
  type SupportInput,
  screenMode,
  supportNotice,
  watchOnline,
} from "#app/shell/browser/environment.ts";

const ua = {
  iphone17:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  iphone9:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 9_3_5 like Mac OS X) AppleWebKit/601.1.46 (KHTML, like Gecko) Version/9.0 Mobile/13G36 Safari/601.1",
  iphone10:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 10_0 like Mac OS X) AppleWebKit/602.1.50 (KHTML, like Gecko) Version/10.0 Mobile/14A346 Safari/602.1",
  chromeIos13:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/87.0.4280.77 Mobile/15E148 Safari/604.1",
  ipad12:
    "Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1 Mobile/15E148 Safari/604.1",
  macSafari17:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  edge79:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.74 Safari/537.36 Edg/79.0.309.43",
  opera20:
    "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/33.0.1750.154 Safari/537.36 OPR/20.0.1387.91",
  firefox: "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
  android13:
    "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
  android44:
    "Mozilla/5.0 (Linux; U; Android 4.4.2; en-us; GT-I9505 Build/KOT49H) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
  androidWebview:
    "Mozilla/5.0 (Linux; Android 11; SM-A505F; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.43 Mobile Safari/537.36",
};

test.each([
  {
    name: "iPhone Safari",
    userAgent: ua.iphone17,
    touch: 5,
    browsername: "safari",
    browserver: "17.4",
    deviceplatform: "ios",
    osver: "17.4",
    isIpad: false,
  },
  {
    name: "Chrome on iOS",
    userAgent: ua.chromeIos13,
    touch: 5,
    browsername: "chrome",
    browserver: "87.0.4280.77",
    deviceplatform: "ios",
    osver: "13.7",
    isIpad: false,
  },
  {
    name: "old iPad",
    userAgent: ua.ipad12,
    touch: 5,
    browsername: "safari",
    browserver: "12.1",
    deviceplatform: "ios",
    osver: "12.2",
    isIpad: true,
  },
  {
    name: "iPadOS desktop mode",
    userAgent: ua.macSafari17,
    touch: 5,
    browsername: "safari",
    browserver: "17.4",
    deviceplatform: "ios",
    osver: "17.4",
    isIpad: true,
  },
  {
    name: "Mac Safari",
    userAgent: ua.macSafari17,
    touch: 0,
    browsername: "safari",
    browserver: "17.4",
    deviceplatform: "web",
    osver: "10.15.7",
    isIpad: false,
  },
  {
    name: "Chromium Edge",
    userAgent: ua.edge79,
    touch: 0,
    browsername: "edge",
    browserver: "79.0.309.43",
    deviceplatform: "web",
    osver: "10.0",
    isIpad: false,
  },
  {
    name: "Opera",
    userAgent: ua.opera20,
    touch: 0,
    browsername: "opera",
    browserver: "20.0.1387.91",
    deviceplatform: "web",
    osver: "6.1",
    isIpad: false,
  },
  {
    name: "Firefox",
    userAgent: ua.firefox,
    touch: 0,
    browsername: "firefox",
    browserver: "120.0",
    deviceplatform: "web",
    osver: "",
    isIpad: false,
  },
  {
    name: "Android Chrome",
    userAgent: ua.android13,
    touch: 5,
    browsername: "chrome",
    browserver: "120.0.0.0",
    deviceplatform: "android",
    osver: "13",
    isIpad: false,
  },
  {
    name: "unknown",
    userAgent: "curl/8.0",
    touch: 0,
    browsername: "other",
    browserver: "",
    deviceplatform: "web",
    osver: "",
    isIpad: false,
  },
])("describeBrowser: $name", ({ userAgent, touch, name: _name, ...expected }) => {
  expect(describeBrowser(userAgent, touch)).toEqual(expected);
});

test.each([
  { name: "iPhone on iOS 17", input: { userAgent: ua.iphone17 }, notice: undefined },
  { name: "iPhone on iOS 10", input: { userAgent: ua.iphone10 }, notice: undefined },
  { name: "iPhone on iOS 9", input: { userAgent: ua.iphone9 }, notice: "osupgrade" },
  { name: "iPad", input: { userAgent: ua.ipad12, maxTouchPoints: 5 }, notice: "unsupported" },
  {
    name: "iPad in desktop mode",
    input: { userAgent: ua.macSafari17, maxTouchPoints: 5 },
    notice: "unsupported",
  },
  { name: "iPad allowed", input: { userAgent: ua.ipad12, allowIpad: true }, notice: undefined },
  { name: "Mac", input: { userAgent: ua.macSafari17 }, notice: undefined },
  { name: "Android 13 browser", input: { userAgent: ua.android13 }, notice: undefined },
  { name: "Android 4.4 browser", input: { userAgent: ua.android44 }, notice: "osupgrade" },
  {
    name: "app on API 20",
    input: { userAgent: ua.androidWebview, bridge: { os: { APILevel: 20 } } },
    notice: "osupgrade",
  },
  {
    name: "app on API 21",
    input: { userAgent: ua.androidWebview, bridge: { os: { APILevel: 21 } } },
    notice: undefined,
  },
  {
    name: "Android app 7.2.9",
    input: { userAgent: ua.androidWebview, bridge: { os: { APILevel: 30 }, client: { version: "7.2.9" } } },
    notice: "appupgrade",
  },
  {
    name: "Android app 7.3.0",
    input: { userAgent: ua.androidWebview, bridge: { os: { APILevel: 30 }, client: { version: "7.3.0" } } },
    notice: undefined,
  },
  {
    name: "Android app 7.10.0",
    input: { userAgent: ua.androidWebview, bridge: { client: { version: "7.10.0-beta" } } },
    notice: undefined,
  },
  {
    name: "old OS before old app",
    input: { userAgent: ua.androidWebview, bridge: { os: { APILevel: 19 }, client: { version: "6.0.0" } } },
    notice: "osupgrade",
  },
  {
    name: "Android app under a configured minimum",
    input: {
      userAgent: ua.androidWebview,
      bridge: { client: { version: "8.0.0" } },
      minimumAppVersion: { android: "9.0" },
    },
    notice: "appupgrade",
  },
  {
    name: "iOS app, no iOS minimum by default",
    input: { userAgent: ua.iphone17, bridge: { client: { version: "1.0" } } },
    notice: undefined,
  },
  {
    name: "iOS app under a configured minimum",
    input: {
      userAgent: ua.iphone17,
      bridge: { client: { version: "14.9" } },
      minimumAppVersion: { ios: "15.0" },
    },
    notice: "appupgrade",
  },
] satisfies { name: string; input: SupportInput; notice: string | undefined }[])(
  "support: $name → $notice",
  ({ input, notice }) => {
    expect(supportNotice(input)).toBe(notice);
  },
);

test("about-bridge data: APILevel may come as a numeric string; other shapes fail", () => {
  expect(v.parse(aboutBridgeDataSchema, { os: { APILevel: "23" }, client: { version: "7.4.1" } })).toEqual({
    os: { APILevel: 23 },
    client: { version: "7.4.1" },
  });
  expect(v.safeParse(aboutBridgeDataSchema, { os: { APILevel: "twenty" } }).success).toBe(false);
});

test.each([
  { width: 0, mode: "phone" },
  { width: 649, mode: "phone" },
  { width: 650, mode: "tablet" },
  { width: 799, mode: "tablet" },
  { width: 800, mode: "desktop" },
  { width: 1920, mode: "desktop" },
])("screen mode of $width px is $mode", ({ width, mode }) => {
  expect(screenMode(width)).toBe(mode);
});

test.each([
  { a: "7.3.0", b: "7.3.0", order: 0 },
  { a: "7.3", b: "7.3.0", order: 0 },
  { a: "7.10.0", b: "7.3.0", order: 1 },
  { a: "7.2.99", b: "7.3.0", order: -1 },
  { a: "8", b: "7.99.99", order: 1 },
  { a: "7.3.0-beta", b: "7.3.0", order: 0 },
  { a: "garbage", b: "7.3.0", order: -1 },
])("compareVersions($a, $b) = $order", ({ a, b, order }) => {
  expect(compareVersions(a, b)).toBe(order);
});

test.each([
  { name: "phone in landscape in the app", width: 844, height: 390, inApp: true, notice: true },
  { name: "phone in portrait in the app", width: 390, height: 844, inApp: true, notice: false },
  { name: "tablet in landscape in the app", width: 1180, height: 820, inApp: true, notice: false },
  { name: "phone in landscape on the website", width: 844, height: 390, inApp: false, notice: false },
])("orientation notice: $name → $notice", ({ notice, ...viewport }) => {
  expect(needsOrientationNotice(viewport)).toBe(notice);
});

test("watchOnline reports the current state and each change until stopped", () => {
  const listeners = new Map<string, () => void>();
  const target: OnlineEventTarget = {
    addEventListener: (type, listener) => listeners.set(type, listener),
    removeEventListener: (type) => listeners.delete(type),
  };
  const seen: boolean[] = [];
  const stop = watchOnline(
    target,
    () => false,
    (online) => seen.push(online),
  );
  listeners.get("online")?.();
  listeners.get("offline")?.();
  stop();
  expect(seen).toEqual([false, true, false]);
  expect(listeners.size).toBe(0);
});

test.each([
  { cookieEnabled: true, storage: true, enabled: true },
  { cookieEnabled: undefined, storage: true, enabled: true },
  { cookieEnabled: false, storage: true, enabled: false },
  { cookieEnabled: true, storage: false, enabled: false },
])("cookies enabled ($cookieEnabled, storage $storage) → $enabled", ({ cookieEnabled, storage, enabled }) => {
  expect(cookiesEnabled({ cookieEnabled, storageWorks: () => storage })).toBe(enabled);
});
