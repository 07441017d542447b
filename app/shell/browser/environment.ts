import * as v from "valibot";
import type { FeaturePlatform } from "#rules/feature-flags.ts";
import { isIpad, platformOf } from "#rules/user-agent.ts";

/**
 * What the visitor's device and browser can do (spec 000 §4 screen modes, §5 environment support,
 * §9 minimums and the WebP table). Pure functions of the user agent and the native bridge's
 * about-bridge data; the live parts (offline, orientation) take their event source as an argument.
 */

/** Spec 000 §9: "Minimums: iOS 10, Android API 21, Android app 7.3.0." */
export const minimumIosVersion = 10;
export const minimumAndroidApiLevel = 21;
export const defaultMinimumAppVersion = { android: "7.3.0" } as const;
/** Spec 000 §4 (breakpoints of the later document): phone under 650 px, tablet 650 to 800, desktop 800 and above. */
export const tabletMinWidth = 650;
export const desktopMinWidth = 800;

export type ScreenMode = "phone" | "tablet" | "desktop";

export function screenMode(width: number): ScreenMode {
  if (width < tabletMinWidth) return "phone";
  if (width < desktopMinWidth) return "tablet";
  return "desktop";
}

export type BrowserName = "edge" | "opera" | "firefox" | "chrome" | "safari" | "other";

export type BrowserInfo = {
  browsername: BrowserName;
  /** Full version as the user agent gives it, "" when unknown. */
  browserver: string;
  deviceplatform: FeaturePlatform;
  /** OS version ("17.4", "14"), "" when unknown. */
  osver: string;
  isIpad: boolean;
};

/**
 * Reads the user agent; its platform by the one rule of rules/user-agent.ts.
 */
export function describeBrowser(userAgent: string, maxTouchPoints = 0): BrowserInfo {
  const deviceplatform = platformOf(userAgent, maxTouchPoints);
  const isIos = deviceplatform === "ios";
  const android = deviceplatform === "android" ? /\bAndroid (\d+(?:\.\d+)*)/.exec(userAgent) : null;

  let osver = "";
  if (isIos) {
    const iosVersion = /\bOS (\d+(?:_\d+)*) like Mac OS X/.exec(userAgent);
    osver = iosVersion?.[1]?.replace(/_/g, ".") ?? versionOf(/\bVersion\/(\d+(?:\.\d+)*)/, userAgent);
  } else if (android) {
    osver = android[1] ?? "";
  } else {
    const mac = /\bMac OS X (\d+(?:[_.]\d+)*)/.exec(userAgent);
    const windows = /\bWindows NT (\d+(?:\.\d+)*)/.exec(userAgent);
    osver = (mac?.[1] ?? windows?.[1] ?? "").replace(/_/g, ".");
  }

  const [browsername, browserver] = browserOf(userAgent);
  return {
    browsername,
    browserver,
    deviceplatform,
    osver,
    isIpad: isIpad(userAgent, maxTouchPoints),
  };
}

function browserOf(userAgent: string): [BrowserName, string] {
  const rows: [BrowserName, RegExp][] = [
    ["edge", /\bEdg(?:e|A|iOS)?\/(\d+(?:\.\d+)*)/],
    ["opera", /\b(?:OPR|OPiOS)\/(\d+(?:\.\d+)*)/],
    ["opera", /\bOpera\/.*\bVersion\/(\d+(?:\.\d+)*)/],
    ["firefox", /\b(?:Firefox|FxiOS)\/(\d+(?:\.\d+)*)/],
    ["chrome", /\b(?:Chrome|CriOS)\/(\d+(?:\.\d+)*)/],
    ["safari", /\bVersion\/(\d+(?:\.\d+)*).*\bSafari\//],
  ];
  for (const [name, pattern] of rows) {
    const version = pattern.exec(userAgent)?.[1];
    if (version !== undefined) return [name, version];
  }
  return ["other", ""];
}

function versionOf(pattern: RegExp, text: string): string {
  return pattern.exec(text)?.[1] ?? "";
}

function major(version: string): number {
  const value = Number.parseInt(version, 10);
  return Number.isNaN(value) ? 0 : value;
}

/** The about-bridge reply data (spec 000 §3: "carries os (with APILevel) and client.version"). */
export const aboutBridgeDataSchema = v.object({
  os: v.optional(
    v.object({
      APILevel: v.optional(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))])),
    }),
  ),
  client: v.optional(v.object({ version: v.optional(v.string()) })),
});
export type AboutBridgeData = v.InferOutput<typeof aboutBridgeDataSchema>;

export type SupportNotice = "unsupported" | "osupgrade" | "appupgrade";

export type SupportInput = {
  userAgent: string;
  maxTouchPoints?: number;
  /** Parsed about-bridge data; absent outside the app. */
  bridge?: AboutBridgeData;
  /** Whether iPads are allowed (spec 000 §5: "iPad unsupported unless allowed"). Default false. */
  allowIpad?: boolean;
  /** Minimum app versions per platform. Default `defaultMinimumAppVersion` (Android 7.3.0, no iOS minimum). */
  minimumAppVersion?: Partial<Record<"ios" | "android", string>>;
};

/**
 * Spec 000 §5. The first rule that applies wins: an unsupported device is told so whatever its OS;
 * an OS too old for the current app is upgraded before the app is. The Android API level comes
 * from the bridge; outside the app it is read from the Android version (API 21 is Android 5.0).
 * The app version is known only inside the app.
 */
export function supportNotice(input: SupportInput): SupportNotice | undefined {
  const browser = describeBrowser(input.userAgent, input.maxTouchPoints);
  if (browser.isIpad && !input.allowIpad) return "unsupported";

  if (browser.deviceplatform === "ios" && browser.osver !== "" && major(browser.osver) < minimumIosVersion) {
    return "osupgrade";
  }
  if (browser.deviceplatform === "android") {
    const apiLevel = input.bridge?.os?.APILevel;
    if (
      apiLevel !== undefined
        ? apiLevel < minimumAndroidApiLevel
        : browser.osver !== "" && major(browser.osver) < 5
    ) {
      return "osupgrade";
    }
  }

  const appVersion = input.bridge?.client?.version;
  if (appVersion !== undefined && browser.deviceplatform !== "web") {
    const minimums: Partial<Record<"ios" | "android", string>> =
      input.minimumAppVersion ?? defaultMinimumAppVersion;
    const minimum = minimums[browser.deviceplatform];
    if (minimum !== undefined && compareVersions(appVersion, minimum) < 0) return "appupgrade";
  }
  return undefined;
}

/** Compares dotted numeric versions ("7.10.0" > "7.3.0"); anything after the numbers is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) =>
    (/^\d+(?:\.\d+)*/.exec(version.trim())?.[0] ?? "0").split(".").map(Number);
  const left = parts(a);
  const right = parts(b);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/**
 * The orientation notice: a phone (short side under the tablet width) held in landscape inside
 * the app, whose screens are laid out for portrait. On the website landscape is left alone.
 */
export function needsOrientationNotice(viewport: { width: number; height: number; inApp: boolean }): boolean {
  return viewport.inApp && viewport.width > viewport.height && screenMode(viewport.height) === "phone";
}

/** Spec 002 §9 "Resize debounce 100 ms". */
export const resizeDebounceMs = 100;

/** The part of `window` the resize watch needs. */
export type ResizeEventTarget = {
  addEventListener(type: "resize" | "orientationchange", listener: () => void): void;
  removeEventListener(type: "resize" | "orientationchange", listener: () => void): void;
};

/** Calls `onResize` once the viewport has stopped changing for 100 ms; returns the unsubscribe. */
export function watchResize(target: ResizeEventTarget, onResize: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listener = () => {
    clearTimeout(timer);
    timer = setTimeout(onResize, resizeDebounceMs);
  };
  target.addEventListener("resize", listener);
  target.addEventListener("orientationchange", listener);
  return () => {
    clearTimeout(timer);
    target.removeEventListener("resize", listener);
    target.removeEventListener("orientationchange", listener);
  };
}

/** The part of `window` the offline watch needs. */
export type OnlineEventTarget = {
  addEventListener(type: "online" | "offline", listener: () => void): void;
  removeEventListener(type: "online" | "offline", listener: () => void): void;
};

/** Calls `onChange(online)` now and on every change; returns the unsubscribe. */
export function watchOnline(
  target: OnlineEventTarget,
  isOnline: () => boolean,
  onChange: (online: boolean) => void,
): () => void {
  const online = () => onChange(true);
  const offline = () => onChange(false);
  target.addEventListener("online", online);
  target.addEventListener("offline", offline);
  onChange(isOnline());
  return () => {
    target.removeEventListener("online", online);
    target.removeEventListener("offline", offline);
  };
}

/**
 * Whether cookies (and with them local storage) work. Browsers with cookies disabled also refuse
 * local storage, so both are asked; the start-up shows the no-cookies state when either says no.
 */
export function cookiesEnabled(probe: {
  cookieEnabled: boolean | undefined;
  storageWorks: () => boolean;
}): boolean {
  return probe.cookieEnabled !== false && probe.storageWorks();
}
