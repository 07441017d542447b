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
