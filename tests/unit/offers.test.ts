import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { offerCacheHeaders } from "#app/routes/($lang).campaign.$name/page.server.ts";
import { clientBucketOf } from "#origin/offers.ts";
import { campaignNameSchema } from "#rules/campaign-name.ts";
import {
  type Campaign,
  campaignSchema,
  type OfferInputs,
  offerDeviceOf,
  offerLimits,
  offerMonthsOn,
  offerPageStatus,
  offerState,
  offerStates,
} from "#rules/offers.ts";

// The offer rule (spec 001 §2, §4, §8): every state from its inputs, country × platform × user ×
// device authentication × ended, and the platform's months.

const now = Date.parse("2026-06-01T12:00:00Z");

function campaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    name: "three-free",
    service: "Apple Music",
    months: 3,
    countries: ["GB", "DE"],
    platforms: ["ios", "android", "web"],
    smartphoneOnly: false,
    startsAt: "2026-01-01T00:00:00.000Z",
    endsAt: "2027-01-01T00:00:00.000Z",
    ...overrides,
  };
}

const iphone = { platform: "ios", smartphone: true } as const;
const ipad = { platform: "ios", smartphone: false } as const;
const androidPhone = { platform: "android", smartphone: true } as const;
const desktop = { platform: "web", smartphone: false } as const;
const newUser = { signedIn: true, code: undefined, redeemedOther: false } as const;

function inputs(overrides: Partial<OfferInputs> = {}): OfferInputs {
  return {
    campaign: campaign(),
    now,
    country: "GB",
    device: iphone,
    inApp: false,
    account: newUser,
    deviceAuth: "unknown",
    ...overrides,
  };
}

describe("offerState", () => {
  const cases: [string, Partial<OfferInputs>, string][] = [
    ["no campaign of that name", { campaign: undefined }, "noOffer"],
    ["a campaign that has not started", { now: Date.parse("2025-12-31T23:59:59Z") }, "noOffer"],
    ["the campaign's end, to the millisecond", { now: Date.parse("2027-01-01T00:00:00Z") }, "ended"],
    [
      "ended, even with a code",
      { now: Date.parse("2027-02-01T00:00:00Z"), account: { ...newUser, code: "AAAA-BBBB-CCCC-DDDD" } },
      "ended",
    ],
    [
      "a code handed out: shown anywhere",
      { country: "US", inApp: true, account: { ...newUser, code: "AAAA-BBBB-CCCC-DDDD" } },
      "redeemed",
    ],
    ["the app's webview", { inApp: true }, "openInBrowser"],
    ["another store-front country", { country: "US" }, "notInCountry"],
    [
      "country before platform",
      { country: "US", device: desktop, campaign: campaign({ platforms: ["ios"] }) },
      "notInCountry",
    ],
    [
      "a platform the campaign leaves out",
      { device: androidPhone, campaign: campaign({ platforms: ["ios"] }) },
      "notOnPlatform",
    ],
    [
      "smartphone-only on a desktop",
      { device: desktop, campaign: campaign({ smartphoneOnly: true }) },
      "openOnPhone",
    ],
    [
      "smartphone-only on an iPad",
      { device: ipad, campaign: campaign({ smartphoneOnly: true }) },
      "openOnPhone",
    ],
    ["smartphone-only on an iPhone", { campaign: campaign({ smartphoneOnly: true }) }, "available"],
    ["signed out", { account: { signedIn: false } }, "signInRequired"],
    [
      "signed out on the wrong device: the device first",
      { account: { signedIn: false }, device: desktop, campaign: campaign({ smartphoneOnly: true }) },
      "openOnPhone",
    ],
    ["another campaign's code: not new", { account: { ...newUser, redeemedOther: true } }, "notNewUser"],
    ["a device clock 6 minutes fast", { clockSkewMs: 6 * 60_000 }, "clockSkew"],
    ["a device clock 6 minutes slow", { clockSkewMs: -6 * 60_000 }, "clockSkew"],
    ["a device clock 4 minutes off", { clockSkewMs: 4 * 60_000 }, "available"],
    ["no authenticator on an iPhone", { deviceAuth: "unavailable" }, "deviceAuthRequired"],
    ["no authenticator on a desktop", { deviceAuth: "unavailable", device: desktop }, "deviceAuthRequired"],
    [
      "no authenticator on Android: its store services",
      { deviceAuth: "unavailable", device: androidPhone },
      "installStoreServices",
    ],
    ["verification failed", { deviceAuth: "failed" }, "deviceAuthRequired"],
    ["verification failed on Android", { deviceAuth: "failed", device: androidPhone }, "deviceAuthRequired"],
    [
      "not new, with no authenticator: not new first",
      { account: { ...newUser, redeemedOther: true }, deviceAuth: "unavailable" },
      "notNewUser",
    ],
    [
      "an account a minute short of a day old",
      { account: { ...newUser, createdAt: now - offerLimits.minAccountAgeMs + 60_000 } },
      "limitReached",
    ],
    [
      "an account a day old",
      { account: { ...newUser, createdAt: now - offerLimits.minAccountAgeMs } },
      "available",
    ],
    [
      "too new and not new: not new first",
      { account: { ...newUser, redeemedOther: true, createdAt: now } },
      "notNewUser",
    ],
    ["unknown before the browser tried", {}, "available"],
    ["verified", { deviceAuth: "verified" }, "available"],
    ["verified on a desktop", { deviceAuth: "verified", device: desktop }, "available"],
  ];
  test.each(cases)("%s", (_, overrides, expected) => {
    expect(offerState(inputs(overrides))).toBe(expected);
  });

  test("every state is reachable from the table", () => {
    expect(new Set(cases.map(([, , state]) => state))).toEqual(new Set(offerStates));
  });
});

test.each([
  [5, "android", 3],
  [4, "android", 3],
  [3, "android", 3],
  [1, "android", 1],
  [5, "ios", 5],
  [4, "ios", 4],
  [5, "web", 5],
  [1, "web", 1],
] as const)("a %i-month campaign on %s gives %i months", (months, platform, expected) => {
  expect(offerMonthsOn({ months }, platform)).toBe(expected);
});

test.each([
  ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148", 0, iphone],
  ["Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) Mobile/15E148", 0, ipad],
  // iPadOS presents a Mac; the browser knows its touch points.
  ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Version/17.5 Safari/605.1.15", 5, ipad],
  ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Version/17.5 Safari/605.1.15", 0, desktop],
  ["Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile Safari/537.36", 0, androidPhone],
  [
    "Mozilla/5.0 (Linux; Android 14; SM-X710) Chrome/126.0 Safari/537.36",
    0,
    { platform: "android", smartphone: false },
  ],
  ["Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36", 0, desktop],
  [null, 0, desktop],
] as const)("offerDeviceOf(%s, %i)", (agent, touchPoints, expected) => {
  expect(offerDeviceOf(agent, touchPoints)).toEqual(expected);
});

test.each([
  ["noOffer", 404],
  ["ended", 410],
  ["notInCountry", 200],
  ["redeemed", 200],
  ["available", 200],
] as const)("an offer page in state %s answers %i", (state, status) => {
  expect(offerPageStatus(state)).toBe(status);
});

describe("offerCacheHeaders", () => {
  // Browsers and other caches keep nothing (the page varies by the IP's country, which no Vary can
  // name); the edge's document cache keeps it, and never past the campaign's end, fresh or stale.
  test.each([
    ["a campaign months from its end", "2027-01-01T00:00:00.000Z", "max-age=300, stale-if-error=3600"],
    ["an hour from its end", "2026-06-01T13:00:00.000Z", "max-age=300, stale-if-error=3300"],
    ["a minute from its end", "2026-06-01T12:01:00.000Z", "max-age=60, stale-if-error=0"],
    ["ended", "2026-06-01T11:00:00.000Z", "max-age=0, stale-if-error=0"],
  ])("%s: %s", (_, endsAt, expected) => {
    expect(offerCacheHeaders(campaign({ endsAt }), now)).toEqual({
      "Cache-Control": "private, no-cache",
      "Document-Cache-Control": expected,
    });
  });
});

describe("clientBucketOf: the per-client limit counts an IPv4 address, an IPv6 /64", () => {
  test.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8:0:0:1::", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["64:ff9b::203.0.113.7", "64:ff9b:0:0::/64"],
    ["unknown", "unknown"],
  ])("%s counts as %s", (address, bucket) => {
    expect(clientBucketOf(address)).toBe(bucket);
  });
});

describe("the schemas at the edge", () => {
  test.each([
    ["three-free", true],
    ["holiday-2024", true],
    ["a", true],
    ["Three-Free", false],
    ["-free", false],
    ["free-", false],
    ["free_3", false],
    ["a".repeat(21), false],
    ["../etc", false],
    ["", false],
  ])("campaign name %j: %s", (name, valid) => {
    expect(v.safeParse(campaignNameSchema, name).success).toBe(valid);
  });

  test.each([
    ["a campaign", {}, true],
    ["months outside 1, 3, 4, 5", { months: 2 }, false],
    ["no country", { countries: [] }, false],
    ["an unknown country", { countries: ["XX"] }, false],
    ["an unknown platform", { platforms: ["windows"] }, false],
    ["an end before its start", { endsAt: "2025-01-01T00:00:00.000Z" }, false],
    ["a date that is not ISO", { endsAt: "next year" }, false],
  ])("%s", (_, overrides, valid) => {
    expect(v.safeParse(campaignSchema, { ...campaign(), ...overrides }).success).toBe(valid);
  });
});
