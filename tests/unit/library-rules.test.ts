import { describe, expect, test } from "vitest";
import { shownTagTime } from "#origin/library.ts";
import { earliestTagTime, isAcceptedTagTime, roughPosition, tagTimeLeewayMs } from "#rules/library.ts";

// Decision 030, finding 7: the tag times the service accepts, and the rough position it stores.

const now = Date.UTC(2026, 10, 27, 12);

describe("isAcceptedTagTime: from 2000-01-01 to a few minutes after now, whole milliseconds", () => {
  test.each([
    [earliestTagTime, true],
    [now, true],
    [now + tagTimeLeewayMs, true],
    [Date.UTC(2012, 4, 1), true],
    [earliestTagTime - 1, false],
    [0, false],
    [now + tagTimeLeewayMs + 1, false],
    [now + 24 * 60 * 60 * 1000, false],
    [1e300, false],
    [Number.MAX_SAFE_INTEGER + 2, false],
    [now + 0.5, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])("%d → %s", (tagTime, accepted) => {
    expect(isAcceptedTagTime(tagTime, now)).toBe(accepted);
  });
});

describe("roughPosition: two decimals (about 1 km), only as a pair in range", () => {
  test.each([
    [51.5073509, -0.1277583, { lat: 51.51, lng: -0.13 }],
    [-33.8688197, 151.2092955, { lat: -33.87, lng: 151.21 }],
    [0.004, -0.004, { lat: 0, lng: 0 }],
    [90, 180, { lat: 90, lng: 180 }],
    [90.0001, 10, { lat: null, lng: null }],
    [10, -180.5, { lat: null, lng: null }],
    [51.5, null, { lat: null, lng: null }],
    [undefined, 1, { lat: null, lng: null }],
    [Number.NaN, 1, { lat: null, lng: null }],
  ])("%s, %s → %o", (lat, lng, expected) => {
    const rough = roughPosition(lat, lng);
    expect(rough).toEqual(expected);
    // Never a negative zero in a file.
    expect(Object.is(rough.lat, -0) || Object.is(rough.lng, -0)).toBe(false);
  });
});

describe("shownTagTime: a stored time no date can show is shown at when the tag was stored", () => {
  const createdAt = Date.UTC(2026, 0, 2);
  test.each([
    [Date.UTC(2025, 11, 31), Date.UTC(2025, 11, 31)],
    [createdAt + tagTimeLeewayMs, createdAt + tagTimeLeewayMs],
    [1e300, createdAt],
    [createdAt + tagTimeLeewayMs + 1, createdAt],
    [-5, createdAt],
    [earliestTagTime - 1, createdAt],
  ])("%d → %d", (stored, shown) => {
    expect(shownTagTime(stored, createdAt)).toBe(shown);
  });
});
