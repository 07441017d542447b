import { isIpad, platformOf } from "./user-agent";

/**
 * The one rule that decides what an offer page shows and whether the origin hands out a code (spec
 * 001 §2, §4, §8, §9). Pure: the page's loader, the browser and the origin run the same rule on the
 * same inputs. Apart from the campaign's schemas (rules/offers.ts, which re-exports it), so the
 * offer page's browser code runs the rule without loading valibot (decision 027).
 */

/** Spec 001 §9 "Offers: up to 1, 3, 4 or 5 months free". */
export const offerMonths = [1, 3, 4, 5] as const;

/** Spec 001 §4 "Android gets up to 3 months, iOS up to 5"; other platforms get the campaign's own. */
export const platformMonthLimit = { android: 3, ios: 5, web: 5 } as const;

export const offerPlatforms = ["ios", "android", "web"] as const;
export type OfferPlatform = (typeof offerPlatforms)[number];

export type OfferDevice = { platform: OfferPlatform; smartphone: boolean };

/**
 * What the rule reads of a campaign: its terms. rules/offers.ts's `Campaign` (the checked campaign
 * data) has these and more; it builds its schema on this module, so this one does not import it.
 */
export type CampaignTerms = {
  months: (typeof offerMonths)[number];
  countries: readonly string[];
  platforms: readonly OfferPlatform[];
  smartphoneOnly: boolean;
  /** ISO timestamps. */
  startsAt: string;
  endsAt: string;
};

/**
 * The platform and whether the device is a smartphone, from its user agent (rules/user-agent.ts's
 * platform rule): an iPhone or iPod, or an Android phone (Android tablets leave out "Mobile").
 */
export function offerDeviceOf(userAgent: string | null | undefined, maxTouchPoints = 0): OfferDevice {
  const agent = userAgent ?? "";
  const platform = platformOf(agent, maxTouchPoints);
  const smartphone =
    platform === "ios" ? !isIpad(agent, maxTouchPoints) : platform === "android" && /\bMobile\b/.test(agent);
  return { platform, smartphone };
}

/** The free months this device gets: the campaign's, capped by its platform's limit. */
export function offerMonthsOn(campaign: Pick<CampaignTerms, "months">, platform: OfferPlatform): number {
  return Math.min(campaign.months, platformMonthLimit[platform]);
}

/**
 * Device authentication (spec 001 §4 "face, fingerprint or PIN") as far as it is known: `unknown`
 * on the server before the browser tried, `unavailable` where the browser has no user-verifying
 * authenticator, `failed` when verification was refused or did not verify the person, `verified`
 * once the origin checked the browser's answer.
 */
export type DeviceAuth = "unknown" | "unavailable" | "failed" | "verified";

/**
 * What the signed-in account has done with offers (the account service's answer), and when it was
 * made (epoch ms; undefined from an origin that does not say, which the origin's own check covers).
 */
export type OfferAccount =
  | { signedIn: false }
  | { signedIn: true; code: string | undefined; redeemedOther: boolean; createdAt?: number };

/**
 * The offer-farming limits (decision 030; reasons and what they do not stop: docs/decisions/022-offers.md,
 * "Device check and farming limits"), all in one place. A code needs a signed-in account at least
 * `minAccountAgeMs` old that holds no other code (one per account, ever); a WebAuthn credential
 * that no other account registered and that never had a code (one per credential, ever); and a
 * client address (IPv4, or IPv6's /`ipv6PrefixBits`) that got fewer than `codesPerClient` codes
 * in the last `clientWindowMs`.
 */
export const offerLimits = {
  minAccountAgeMs: 24 * 60 * 60 * 1000,
  codesPerClient: 3,
  clientWindowMs: 24 * 60 * 60 * 1000,
  ipv6PrefixBits: 64,
} as const;

/**
 * The device clock may differ from the server's by this much before the page asks the person to
 * correct it (spec 001 §8 "update device date and time (clock skew)"): the store app that takes
 * the code checks it against the device's clock.
 */
export const maxClockSkewMs = 5 * 60 * 1000;

export type OfferInputs = {
  campaign: CampaignTerms | undefined;
  /** The request's clock (the server's), epoch ms. */
  now: number;
  /** The resolved store-front country (rules/countries.ts), upper case. */
  country: string;
  device: OfferDevice;
  /** The native app's webview: no WebAuthn there. */
  inApp: boolean;
  account: OfferAccount;
  deviceAuth: DeviceAuth;
  /** Device clock minus server clock, when the browser measured it. */
  clockSkewMs?: number;
};

/**
 * Every state of an offer page, in the order the rule checks them. The spec's screens (001 §2) are
 * notInCountry, notOnPlatform (and openOnPhone, its smartphone-only form), openInBrowser,
 * deviceAuthRequired and the Copy / Copied control of `redeemed`; §8's messages add noOffer, ended,
 * installStoreServices and clockSkew; "new users only" (§1, §4) adds signInRequired and notNewUser;
 * the farming limits (`offerLimits`) add limitReached: an account too new here, a client address or
 * a device credential over its limit at the origin.
 */
export const offerStates = [
  "noOffer",
  "ended",
  "redeemed",
  "openInBrowser",
  "notInCountry",
  "notOnPlatform",
  "openOnPhone",
  "signInRequired",
  "notNewUser",
  "limitReached",
  "clockSkew",
  "installStoreServices",
  "deviceAuthRequired",
  "available",
] as const;

export type OfferState = (typeof offerStates)[number];

/** The one rule: what the page shows, and what the origin requires before a code is handed out. */
export function offerState(inputs: OfferInputs): OfferState {
  const { campaign, account } = inputs;
  if (!campaign || inputs.now < Date.parse(campaign.startsAt)) return "noOffer";
  if (inputs.now >= Date.parse(campaign.endsAt)) return "ended";
  // A code already handed out stays the person's wherever they open the page from.
  if (account.signedIn && account.code !== undefined) return "redeemed";
  if (inputs.inApp) return "openInBrowser";
  if (!campaign.countries.includes(inputs.country)) return "notInCountry";
  if (!campaign.platforms.includes(inputs.device.platform)) return "notOnPlatform";
  if (campaign.smartphoneOnly && !inputs.device.smartphone) return "openOnPhone";
  if (!account.signedIn) return "signInRequired";
  if (account.redeemedOther) return "notNewUser";
  if (account.createdAt !== undefined && inputs.now - account.createdAt < offerLimits.minAccountAgeMs)
    return "limitReached";
  if (inputs.clockSkewMs !== undefined && Math.abs(inputs.clockSkewMs) > maxClockSkewMs) return "clockSkew";
  if (inputs.deviceAuth === "unavailable") {
    // Android's WebAuthn authenticator comes with the store's services (Google Play services).
    return inputs.device.platform === "android" ? "installStoreServices" : "deviceAuthRequired";
  }
  if (inputs.deviceAuth === "failed") return "deviceAuthRequired";
  return "available";
}

/** HTTP status of an offer page in each state: a page that exists says so, except these. */
export function offerPageStatus(state: OfferState): number {
  if (state === "noOffer") return 404;
  if (state === "ended") return 410;
  return 200;
}

/** The spec's English messages (001 §8), the origin's `message` when it refuses a code. */
export const offerMessages: Record<Exclude<OfferState, "available" | "redeemed">, string> = {
  noOffer: "There is currently no offer available.",
  ended: "This offer has ended",
  openInBrowser: "Oops! The offer can't be accessed from here",
  notInCountry: "This offer is not available in your country",
  notOnPlatform: "This offer is not available on your platform",
  openOnPhone: "This offer is not available on your platform",
  signInRequired: "Sign in to redeem this offer",
  notNewUser: "This offer is for new users only",
  limitReached: "This offer can't be redeemed here right now: try again tomorrow",
  clockSkew: "Update your device date and time",
  installStoreServices: "Install or update store services",
  deviceAuthRequired: "Face ID or fingerprint required",
};

/** Status of the origin's refusal to hand out a code, by the state that refused it. */
export function offerRefusalStatus(state: Exclude<OfferState, "available" | "redeemed">): number {
  if (state === "noOffer") return 404;
  if (state === "ended") return 410;
  if (state === "signInRequired") return 401;
  if (state === "notNewUser") return 409;
  return 403;
}
