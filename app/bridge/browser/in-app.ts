import type { AboutBridge } from "#app/bridge/bridge-schema.ts";
import { type SupportNotice, supportNotice } from "#app/shell/browser/environment.ts";

/**
 * The site inside the native app's webview (spec 000 §3 user object, §4 streaming-service
 * connection and upsell, §5 environment support, §6; spec 002 §1, §5, §6, §9): what differs from
 * the website, as pure rules plus one click interception for deep links.
 */

/**
 * Spec 000 §5 environment support, read inside the app from the about-bridge data (Android API
 * level and app version come only from there). Undefined when the device is fine.
 */
export function inAppSupportNotice(
  about: AboutBridge | undefined,
  device: { userAgent: string; maxTouchPoints?: number; allowIpad?: boolean },
): SupportNotice | undefined {
  return supportNotice({ ...device, bridge: about });
}

export type Membership = {
  member: boolean;
  /** The `{reason}` of a `nonmember_{reason}` flag. */
  reason: string | undefined;
};

/**
 * Spec 000 §3 "appleMusicMembership (member flag or a nonmember_{reason} flag)"; §4 "Membership
 * follows the member flag from the native app". No flag (the website, or an app that sent none)
 * is not a member.
 */
export function membershipOf(flag: string | undefined): Membership {
  if (flag === "member") return { member: true, reason: undefined };
  if (flag?.startsWith("nonmember_")) return { member: false, reason: flag.slice("nonmember_".length) };
  return { member: false, reason: undefined };
}

/** Spec 002 §6: "The upsell is shown when the user flag showUpsell is set (redemption or trial type)." */
export const upsellTypes = ["trial", "redemption"] as const;
export type UpsellType = (typeof upsellTypes)[number];
/** Spec 002 §6: "The default upsell type is trial; trial goes to the subscribe page." */
export const defaultUpsellType: UpsellType = "trial";

/** Spec 000 §4: "The upsell shows only in the native app when the user is neither connected nor a member." */
export function showsUpsell(user: { inApp: boolean; connected: boolean; member: boolean }): boolean {
  return user.inApp && !user.connected && !user.member;
}

/** Spec 000 §3 "User object: appleMusicMembership …, connected, showUpsell". */
export type UserFlags = {
  appleMusicMembership: string | undefined;
  connected: boolean;
  /** The upsell to show, or false. */
  showUpsell: UpsellType | false;
  /** The offer a redemption upsell leads to (`/campaign/{offer}`). */
  offer: string | undefined;
};

/**
 * The user object from the app's about-bridge data. Spec 002 §6: the upsell type is the app's
 * `showUpsell`, trial by default; a redemption without an offer to redeem is a trial (it would
 * lead nowhere).
 */
export function userFlagsOf(input: {
  inApp: boolean;
  /** A streaming-service access token is stored and live (storage.ts connection record). */
  connected: boolean;
  about: AboutBridge | undefined;
}): UserFlags {
  const about = input.inApp ? input.about : undefined;
  const appleMusicMembership = about?.appleMusicMembership;
  const { member } = membershipOf(appleMusicMembership);
  const show = showsUpsell({ inApp: input.inApp, connected: input.connected, member });
  const redemption = about?.showUpsell === "redemption" && about.offer !== undefined;
  return {
    appleMusicMembership,
    connected: input.connected,
    showUpsell: show ? (redemption ? "redemption" : defaultUpsellType) : false,
    offer: show && redemption ? about.offer : undefined,
  };
}

// --- Deep links ----------------------------------------------------------------------------------

/**
 * Spec 002 §5: "Deep-link url replacement applies only to hosts of the music store or streaming
 * service." The streaming service of the spec (membership, connection, MusicKit) is Apple Music and
 * its store the iTunes Store, so these are Apple's hosts; each maps to the `app` parameter that makes
 * the link open in that app instead of the webview. Other services' links are left alone.
 */
export const deepLinkHosts: Readonly<Record<string, "music" | "itunes">> = {
  "music.apple.com": "music",
  "geo.music.apple.com": "music",
  "itunes.apple.com": "itunes",
  "geo.itunes.apple.com": "itunes",
};

/** Spec 002 §9: "Deep-link navigation delay 500 ms." */
export const deepLinkNavigationDelayMs = 500;

/** The deep link that replaces `href`, or undefined when its host is not one of `deepLinkHosts`. */
export function deepLinkUrl(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  const app = deepLinkHosts[url.hostname.toLowerCase()];
  if (app === undefined) return undefined;
  url.protocol = "https:";
  url.searchParams.set("app", app);
  return url.toString();
}

export type DeepLinkOptions = {
  inApp: boolean;
  /** Loads a URL in the webview (the app opens the music app for it). */
  assign: (url: string) => void;
  /** The outbound-link statistic, sent before the delay. */
  sendBeacon?: (href: string) => void;
};

/**
 * Inside the app, a link to the music store or streaming service is replaced by its deep link and
 * followed after the navigation delay. True when the link was taken over (the caller then prevents
 * the default navigation); outside the app, or for other hosts, false.
 */
export function followDeepLink(href: string, options: DeepLinkOptions): boolean {
  if (!options.inApp) return false;
  const target = deepLinkUrl(href);
  if (target === undefined) return false;
  options.sendBeacon?.(href);
  setTimeout(() => options.assign(target), deepLinkNavigationDelayMs);
  return true;
}

/** The part of a click event the interception reads. */
export type LinkClick = {
  target: unknown;
  defaultPrevented: boolean;
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  preventDefault(): void;
};

export type ClickSource = {
  addEventListener(type: "click", listener: (event: LinkClick) => void): void;
  removeEventListener(type: "click", listener: (event: LinkClick) => void): void;
};

function linkOf(target: unknown): string | undefined {
  if (typeof target !== "object" || target === null) return undefined;
  const closest = (target as { closest?: unknown }).closest;
  if (typeof closest !== "function") return undefined;
  const anchor: unknown = closest.call(target, "a[href]");
  const href =
    typeof anchor === "object" && anchor !== null ? (anchor as { href?: unknown }).href : undefined;
  return typeof href === "string" ? href : undefined;
}

/**
 * Intercepts plain left clicks on links in the document (call with `document` from an effect);
 * returns the unsubscribe. A second click while a deep link waits its delay is swallowed.
 */
export function interceptDeepLinks(source: ClickSource, options: DeepLinkOptions): () => void {
  let waiting = false;
  const listener = (event: LinkClick) => {
    if (!options.inApp || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const href = linkOf(event.target);
    if (href === undefined || deepLinkUrl(href) === undefined) return;
    event.preventDefault();
    if (waiting) return;
    waiting = true;
    followDeepLink(href, {
      ...options,
      assign: (url) => {
        waiting = false;
        options.assign(url);
      },
    });
  };
  source.addEventListener("click", listener);
  return () => source.removeEventListener("click", listener);
}
