import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { identificationEventSchema } from "#rules/schemas/identification.ts";
import { utcDayOf, type VisitorInputs, visitorHashOf, visitorHashPattern } from "#rules/visitor-hash.ts";

const webId = "0f8fad5b-d9cb-469f-a165-70867728950e";
const otherWebId = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

function visitor(
  overrides: Partial<Omit<VisitorInputs, "dailySalt">> & { salt?: string } = {},
): VisitorInputs {
  const { salt = "salt-of-monday", ...rest } = overrides;
  return {
    webId,
    globalPrivacyControl: false,
    address: "203.0.113.7",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
    day: "2026-11-30",
    dailySalt: async () => salt,
    ...rest,
  };
}

describe("visitorHashOf", () => {
  test.each([
    ["a webId without GPC", "w:", visitor()],
    ["a webId with GPC", "d:", visitor({ globalPrivacyControl: true })],
    ["no webId", "d:", visitor({ webId: undefined })],
    ["no webId, with GPC", "d:", visitor({ webId: undefined, globalPrivacyControl: true })],
  ])("%s: a %s hash of 128 bits", async (_case, kind, inputs) => {
    const hash = await visitorHashOf(inputs);
    expect(hash.startsWith(kind)).toBe(true);
    expect(hash).toMatch(visitorHashPattern);
  });

  // Pairs of visitors, and whether the charts count them as one.
  test.each([
    ["the same webId on two addresses", visitor(), visitor({ address: "198.51.100.1" }), true],
    ["the same webId on two days", visitor(), visitor({ day: "2026-12-01", salt: "salt-of-tuesday" }), true],
    ["two webIds on one address", visitor(), visitor({ webId: otherWebId }), false],
    [
      "GPC: one address and browser on one day",
      visitor({ globalPrivacyControl: true }),
      visitor({ globalPrivacyControl: true, webId: otherWebId }),
      true,
    ],
    [
      "GPC: two browsers on one address",
      visitor({ globalPrivacyControl: true }),
      visitor({ globalPrivacyControl: true, userAgent: "Mozilla/5.0 (iPhone)" }),
      false,
    ],
    [
      "GPC: two addresses",
      visitor({ globalPrivacyControl: true }),
      visitor({ globalPrivacyControl: true, address: "198.51.100.1" }),
      false,
    ],
    [
      "GPC: the next day, with the next day's salt",
      visitor({ globalPrivacyControl: true }),
      visitor({ globalPrivacyControl: true, day: "2026-12-01", salt: "salt-of-tuesday" }),
      false,
    ],
    ["the same webId with and without GPC", visitor(), visitor({ globalPrivacyControl: true }), false],
  ])("%s", async (_case, first, second, same) => {
    expect((await visitorHashOf(first)) === (await visitorHashOf(second))).toBe(same);
  });

  test("holds neither the webId nor the address", async () => {
    for (const inputs of [visitor(), visitor({ webId: undefined })]) {
      const hash = await visitorHashOf(inputs);
      expect(hash).not.toContain(webId.replaceAll("-", "").slice(0, 8));
      expect(hash).not.toContain("203.0.113.7");
    }
  });

  test("asks for the day's salt only when the rule needs it", async () => {
    let asked = 0;
    const counting = (inputs: VisitorInputs) => ({
      ...inputs,
      dailySalt: () => {
        asked += 1;
        return inputs.dailySalt();
      },
    });
    await visitorHashOf(counting(visitor()));
    expect(asked).toBe(0);
    await visitorHashOf(counting(visitor({ webId: undefined })));
    expect(asked).toBe(1);
  });
});

describe("utcDayOf", () => {
  test.each([
    [Date.UTC(2026, 10, 30, 0, 0, 0), "2026-11-30"],
    [Date.UTC(2026, 10, 30, 23, 59, 59, 999), "2026-11-30"],
    [Date.UTC(2026, 11, 1), "2026-12-01"],
  ])("%d is %s", (ms, day) => {
    expect(utcDayOf(ms)).toBe(day);
  });
});

describe("identificationEventSchema", () => {
  const at = Date.UTC(2026, 10, 30, 12);
  const event = {
    id: "3b241101-e2bb-4255-8caf-4136c566a962",
    trackKey: 176270815,
    country: "GB",
    cityId: 2643743,
    day: "2026-11-30",
    visitorHash: `w:${"a".repeat(32)}`,
    at,
  };

  test("an event as the origin sends it", () => {
    expect(v.parse(identificationEventSchema, event)).toEqual(event);
  });

  test.each([
    ["an id that is not a UUID", { id: "1" }],
    ["a track key that is not a number", { trackKey: "176270815" }],
    ["a track key of 0", { trackKey: 0 }],
    ["a fractional track key", { trackKey: 1.5 }],
    ["a lower-case country", { country: "gb" }],
    ["a country name", { country: "GBR" }],
    ["a negative city", { cityId: -1 }],
    ["a day that is no date", { day: "2026-13-01" }],
    ["a day other than at's", { day: "2026-11-29" }],
    ["a raw webId as visitor", { visitorHash: "0f8fad5b-d9cb-469f-a165-70867728950e" }],
    ["a visitor hash of another kind", { visitorHash: `x:${"a".repeat(32)}` }],
    ["a negative time", { at: -1 }],
    ["no visitor", { visitorHash: undefined }],
  ])("refuses %s", (_case, change) => {
    expect(v.safeParse(identificationEventSchema, { ...event, ...change }).success).toBe(false);
  });

  test.each([null, "text", 42, []])("refuses a message body %j", (body) => {
    expect(v.safeParse(identificationEventSchema, body).success).toBe(false);
  });
});
