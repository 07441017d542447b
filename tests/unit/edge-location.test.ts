import { expect, test } from "vitest";
import { distanceMiles, edgeLocationOf, visitorPlaceOf, withCallerLocation } from "#rules/events.ts";

// The caller's location on events answers (spec 002 §3 x-shz-lat / x-shz-lng), from the edge.

test.each([
  [
    "strings, as Cloudflare sends them",
    { latitude: "51.50740", longitude: "-0.12780" },
    { lat: 51.5074, lng: -0.1278 },
  ],
  ["numbers", { latitude: 35.68, longitude: 139.69 }, { lat: 35.68, lng: 139.69 }],
  ["none (a local request)", undefined, undefined],
  ["only one of the two", { latitude: "51.5" }, undefined],
  ["not numbers", { latitude: "north", longitude: "west" }, undefined],
  ["out of range", { latitude: "91", longitude: "0" }, undefined],
])("the edge's position from %s", (_, cf, location) => {
  expect(edgeLocationOf(cf)).toEqual(location);
});

// The place a shared concert list is measured from (decision 055): the edge's cell.
test.each([
  [
    "central London",
    { latitude: "51.5072", longitude: "-0.1276", timezone: "Europe/London" },
    { cell: "gcpvj", timeZone: "Europe/London" },
  ],
  [
    "Tokyo, as numbers",
    { latitude: 35.68, longitude: 139.69, timezone: "Asia/Tokyo" },
    { cell: "xn76f", timeZone: "Asia/Tokyo" },
  ],
  ["no position, no zone", undefined, { cell: undefined, timeZone: "UTC" }],
  [
    "an unknown zone",
    { latitude: "0", longitude: "0", timezone: "Mars/Olympus" },
    { cell: "s0000", timeZone: "UTC" },
  ],
  ["a zone that is not text", { latitude: "north", timezone: 3 }, { cell: undefined, timeZone: "UTC" }],
])("the visitor's place from %s", (_, cf, expected) => {
  const place = visitorPlaceOf(cf);
  expect({ cell: place.cell, timeZone: place.timeZone }).toEqual(expected);
  const located = edgeLocationOf(cf);
  if (located) {
    // The centre of a 5-character cell is within about 2 miles of every point in it.
    expect(distanceMiles(located, place.point ?? { lat: 90, lng: 0 })).toBeLessThan(2.5);
  } else expect(place.point).toBeUndefined();
});

test("two visitors of one cell are measured from one point", () => {
  const a = visitorPlaceOf({ latitude: "51.5072", longitude: "-0.1276" });
  const b = visitorPlaceOf({ latitude: "51.5080", longitude: "-0.1240" });
  expect(a.point).toEqual(b.point);
  expect(visitorPlaceOf({ latitude: "53.4808", longitude: "-2.2426" }).point).not.toEqual(a.point);
});

const answer = (headers: Record<string, string> = {}) => new Response("{}", { status: 200, headers });
const london = { lat: 51.5074, lng: -0.1278 };

test("an events answer without a location gets the caller's, the rest stays", async () => {
  const located = withCallerLocation(
    "/services/event/v1/GB/shazam-events",
    answer({ "x-cache": "hit" }),
    london,
  );
  expect(located.headers.get("x-shz-lat")).toBe("51.5074");
  expect(located.headers.get("x-shz-lng")).toBe("-0.1278");
  expect(located.headers.get("x-cache")).toBe("hit");
  expect(await located.text()).toBe("{}");
});

test.each([
  [
    "the origin's own location (from geoHash or the caller's headers)",
    "/services/event/v1/GB/shazam-events",
    { "x-shz-lat": "1", "x-shz-lng": "2" },
    london,
    "1",
  ],
  ["another service", "/services/charts/locations", {}, london, null],
  ["no edge position", "/services/event/v1/GB/shazam-events", {}, undefined, null],
])("left as it is: %s", (_, path, headers, caller, lat) => {
  expect(withCallerLocation(path, answer(headers), caller).headers.get("x-shz-lat")).toBe(lat);
});
