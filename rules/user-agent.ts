import type { FeaturePlatform } from "./feature-flags";

/**
 * The one rule from a user agent to the visitor's platform, for the server (store order, feature
 * flags) and the browser (statistics, notices) alike. iPadOS 13 and later present a Mac user
 * agent: a "Macintosh" with more than one touch point is an iPad (the browser knows the touch
 * points; the server does not, and counts it as the Mac it says it is).
 */
export function isIpad(userAgent: string, maxTouchPoints = 0): boolean {
  return /\biPad\b/.test(userAgent) || (/\bMacintosh\b/.test(userAgent) && maxTouchPoints > 1);
}

export function platformOf(userAgent: string | null | undefined, maxTouchPoints = 0): FeaturePlatform {
  if (!userAgent) return "web";
  if (isIpad(userAgent, maxTouchPoints) || /\b(iPhone|iPod)\b/.test(userAgent)) return "ios";
  if (/\bAndroid \d/.test(userAgent)) return "android";
  return "web";
}

/**
 * The device model a user agent names, for the beacons' `devicemodel` (spec 000 §7): "iPhone",
 * "iPad" or "iPod", or an Android build's model (`SM-G991B` in "Android 13; SM-G991B Build/…" or
 * "Android 13; SM-G991B)"). Desktops and Chrome's reduced "Android 10; K" name none.
 */
export function deviceModelOf(userAgent: string, maxTouchPoints = 0): string | undefined {
  if (isIpad(userAgent, maxTouchPoints)) return "iPad";
  const apple = /\b(iPhone|iPod)\b/.exec(userAgent);
  if (apple) return apple[1];
  const android = /\bAndroid [\d.]+;(?: [a-z]{2}[-_][A-Za-z]{2};)? ([^;)]+?)(?: Build\/[^;)]*)?\)/.exec(
    userAgent,
  );
  const model = android?.[1]?.trim();
  return model && model !== "K" ? model : undefined;
}

/** Spec 000 §8 "Unknown platform … reported as error statistics": an agent that names no system. */
export function namesKnownSystem(userAgent: string): boolean {
  return /\b(iPhone|iPad|iPod|Android|Windows|Macintosh|Mac OS X|Linux|X11|CrOS|CrKey|Tizen|KaiOS|PlayStation|Xbox|Nintendo)\b/.test(
    userAgent,
  );
}
