import { SELF } from "cloudflare:test";
import { expect, test } from "vitest";
import {
  dateRangeOf,
  distanceMiles,
  enrichEventTime,
  isInDateRange,
  isUpcoming,
  servicesPathOfNext,
  upcomingGroupOf,
  zonedInstant,
} from "#rules/events.ts";

// The concert rules in workerd, whose ICU time-zone data is the one production formats with.

const origin = "https://tunewave.test";
const hour = 3_600_000;
const day = 24 * hour;
const spaces = (text: string) => text.replace(/\s/g, " ");

// startTime (UTC), zone → the local weekday, date, 12-hour start and zone name (en-US).
const enrichmentCases: [string, string, string, string, string, string][] = [
  ["2026-11-28T19:30:00Z", "Europe/London", "Saturday", "Nov 28", "7:30 PM", "GMT"],
  ["2026-07-04T19:30:00Z", "Europe/London", "Saturday", "Jul 04", "8:30 PM", "GMT+1"],
  // Europe/London springs forward at 01:00 UTC on 29 March 2026.
  ["2026-03-29T00:30:00Z", "Europe/London", "Sunday", "Mar 29", "12:30 AM", "GMT"],
  ["2026-03-29T01:30:00Z", "Europe/London", "Sunday", "Mar 29", "2:30 AM", "GMT+1"],
  // ...and falls back at 01:00 UTC on 25 October: 1:30 AM happens twice.
  ["2026-10-25T00:30:00Z", "Europe/London", "Sunday", "Oct 25", "1:30 AM", "GMT+1"],
  ["2026-10-25T01:30:00Z", "Europe/London", "Sunday", "Oct 25", "1:30 AM", "GMT"],
  // America/New_York springs forward at 2 AM local on 8 March 2026.
  ["2026-03-08T06:59:00Z", "America/New_York", "Sunday", "Mar 08", "1:59 AM", "EST"],
  ["2026-03-08T07:00:00Z", "America/New_York", "Sunday", "Mar 08", "3:00 AM", "EDT"],
  // The local date is the day before the UTC one.
  ["2026-11-29T03:00:00Z", "America/New_York", "Saturday", "Nov 28", "10:00 PM", "EST"],
  ["2026-12-31T09:00:00Z", "Pacific/Honolulu", "Wednesday", "Dec 30", "11:00 PM", "HST"],
  ["2026-01-10T23:00:00Z", "America/St_Johns", "Saturday", "Jan 10", "7:30 PM", "GMT-3:30"],
  ["2026-11-28T14:00:00Z", "Asia/Kolkata", "Saturday", "Nov 28", "7:30 PM", "GMT+5:30"],
  ["2026-11-28T13:15:00Z", "Asia/Kathmandu", "Saturday", "Nov 28", "7:00 PM", "GMT+5:45"],
  // Australia/Sydney falls back at 3 AM local on 5 April 2026 (16:00 UTC on the 4th).
  ["2026-04-04T15:30:00Z", "Australia/Sydney", "Sunday", "Apr 05", "2:30 AM", "GMT+11"],
  ["2026-04-04T16:30:00Z", "Australia/Sydney", "Sunday", "Apr 05", "2:30 AM", "GMT+10"],
  // The local date is the day after the UTC one.
  ["2026-11-28T10:00:00Z", "Pacific/Kiritimati", "Sunday", "Nov 29", "12:00 AM", "GMT+14"],
  ["2026-11-28T06:00:00Z", "Pacific/Chatham", "Saturday", "Nov 28", "7:45 PM", "GMT+13:45"],
  ["2026-11-28T10:30:00Z", "Asia/Tokyo", "Saturday", "Nov 28", "7:30 PM", "GMT+9"],
];

test.each(enrichmentCases)(
  "an event at %s in %s is on %s %s at %s %s",
  (start, timezone, weekday, monthDate, clock, zone) => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    const time = enrichEventTime({ startTime: start, endTime: undefined, timezone }, now, "en-US");
    expect(time.day).toBe(weekday);
    expect(`${time.month} ${time.date}`).toBe(monthDate);
    expect(spaces(time.startHourMin)).toBe(clock);
    expect(time.timezoneAbbrevation).toBe(zone);
    expect(time.fullday).toContain(weekday);
    expect(spaces(time.fulldatetime)).toContain(clock);
  },
);

// now relative to a start at 20:00 UTC and an end at 23:00 UTC → the show's state.
const stateCases: [string, number, Partial<ReturnType<typeof enrichEventTime>>][] = [
  [
    "a month before",
    -30 * day,
    { isFuture: true, isPreShow: true, isLeadUpShow: false, isActiveShow: false, isPostShow: false },
  ],
  ["3 days and a minute before", -(3 * day + 60_000), { isPreShow: true, isLeadUpShow: false }],
  ["exactly 3 days before", -3 * day, { isPreShow: true, isLeadUpShow: true }],
  ["an hour before", -hour, { isFuture: true, isPreShow: true, isLeadUpShow: true, isActiveShow: false }],
  [
    "at the start",
    0,
    { isFuture: false, isPreShow: false, isLeadUpShow: true, isActiveShow: true, isPostShow: false },
  ],
  [
    "during",
    2 * hour,
    { isFuture: false, isPreShow: false, isLeadUpShow: false, isActiveShow: true, isPostShow: false },
  ],
  ["at the end", 3 * hour, { isActiveShow: false, isPostShow: true }],
  ["a day after", 27 * hour, { isFuture: false, isPreShow: false, isActiveShow: false, isPostShow: true }],
];

test.each(stateCases)("%s the show, its state is right", (_, offset, expected) => {
  const start = Date.parse("2026-06-12T20:00:00Z");
  const time = enrichEventTime(
    { startTime: "2026-06-12T20:00:00Z", endTime: "2026-06-12T23:00:00Z", timezone: "Europe/Paris" },
    start + offset,
    "en-GB",
  );
  expect(time).toMatchObject(expected);
  expect(time.duration).toBe(3);
});

test("an event without a time is pre-show and future (spec 002 §3), with no date text", () => {
  const time = enrichEventTime({ timezone: "Europe/Berlin" }, Date.now(), "de");
  expect(time).toMatchObject({ isPreShow: true, isFuture: true, isPostShow: false, isActiveShow: false });
  expect(time.day).toBe("");
  expect(isUpcoming({ timezone: "Europe/Berlin" }, Date.now())).toBe(true);
});

test("a show across the autumn DST change lasts its real hours, not the wall clock's", () => {
  const time = enrichEventTime(
    { startTime: "2026-10-25T00:00:00Z", endTime: "2026-10-25T03:00:00Z", timezone: "Europe/London" },
    0,
    "en-GB",
  );
  expect(time.duration).toBe(3);
});

test("a wall-clock time becomes the right instant in its zone, across DST gaps and overlaps", () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  expect(iso(zonedInstant("2026-11-28", 19, 30, "Europe/London"))).toBe("2026-11-28T19:30:00.000Z");
  expect(iso(zonedInstant("2026-07-04", 19, 30, "Europe/London"))).toBe("2026-07-04T18:30:00.000Z");
  // 1:30 does not exist on 29 March in London: it moves forward by the gap, to 2:30 BST.
  expect(iso(zonedInstant("2026-03-29", 1, 30, "Europe/London"))).toBe("2026-03-29T01:30:00.000Z");
  // 1:30 happens twice on 25 October: the earlier one.
  expect(iso(zonedInstant("2026-10-25", 1, 30, "Europe/London"))).toBe("2026-10-25T00:30:00.000Z");
  expect(iso(zonedInstant("2026-11-28", 19, 30, "Asia/Kathmandu"))).toBe("2026-11-28T13:45:00.000Z");
  expect(iso(zonedInstant("2026-11-29", 0, 0, "Pacific/Kiritimati"))).toBe("2026-11-28T10:00:00.000Z");
});

/** A point `miles` due north of another (a degree of latitude is R·π/180 miles). */
function north(from: { lat: number; lng: number }, miles: number) {
  return { lat: from.lat + (miles / 3958.8) * (180 / Math.PI), lng: from.lng };
}

test("the location filter is distance under 100 miles: 99.9 is near, 100.1 is not (spec 002 §5)", () => {
  const visitor = { lat: 51.5074, lng: -0.1278 };
  const near = north(visitor, 99.9);
  const far = north(visitor, 100.1);
  expect(distanceMiles(visitor, near)).toBeCloseTo(99.9, 6);
  expect(distanceMiles(visitor, far)).toBeCloseTo(100.1, 6);
  const who = { location: visitor, country: "GB" };
  expect(upcomingGroupOf({ ...near, country: "GB" }, who)).toBe("lt100miles");
  expect(upcomingGroupOf({ ...far, country: "GB" }, who)).toBe("country");
  expect(upcomingGroupOf({ ...far, country: "FR" }, who)).toBe("all");
  expect(upcomingGroupOf({ ...near, country: "FR" }, { location: undefined, country: "GB" })).toBe("all");
});

test("a date filter ends at midnight in the event's own zone", () => {
  const tokyo = "Asia/Tokyo";
  const today = { from: "2026-11-28", to: "2026-11-28" };
  // 23:59 in Tokyo on the 28th is 14:59 UTC; 00:00 on the 29th is 15:00 UTC, still the 28th in UTC.
  expect(isInDateRange({ startTime: "2026-11-28T14:59:00Z", timezone: tokyo }, today)).toBe(true);
  expect(isInDateRange({ startTime: "2026-11-28T15:00:00Z", timezone: tokyo }, today)).toBe(false);
  // The same instants in New York are both the 28th.
  expect(isInDateRange({ startTime: "2026-11-28T15:00:00Z", timezone: "America/New_York" }, today)).toBe(
    true,
  );
  expect(isInDateRange({ startTime: "2026-11-29T04:59:00Z", timezone: "America/New_York" }, today)).toBe(
    true,
  );
  expect(isInDateRange({ startTime: "2026-11-29T05:00:00Z", timezone: "America/New_York" }, today)).toBe(
    false,
  );
  expect(isInDateRange({ timezone: tokyo }, today)).toBe(false);
});

const rangeCases: [string, "today" | "tomorrow" | "weekend", string, string][] = [
  ["2026-11-26", "today", "2026-11-26", "2026-11-26"],
  ["2026-11-30", "tomorrow", "2026-12-01", "2026-12-01"],
  ["2026-12-31", "tomorrow", "2027-01-01", "2027-01-01"],
  // A weekend that crosses a month (Thursday 29 January 2026 → Saturday 31, Sunday 1 February).
  ["2026-01-29", "weekend", "2026-01-31", "2026-02-01"],
  ["2026-01-31", "weekend", "2026-01-31", "2026-02-01"],
  ["2026-02-01", "weekend", "2026-02-01", "2026-02-01"],
  ["2026-12-31", "weekend", "2027-01-02", "2027-01-03"],
];

test.each(rangeCases)("on %s, %s is %s to %s", (today, filter, from, to) => {
  expect(dateRangeOf(filter, today)).toEqual({ from, to });
});

async function getJson(path: string) {
  const response = await SELF.fetch(`${origin}${path}`);
  return { response, body: (await response.json()) as Record<string, unknown> };
}

type Upcoming = {
  data: { id: string }[];
  next?: string;
  resources: Record<string, Record<string, { attributes: Record<string, unknown> }>>;
};

test("upcoming events page through next links rewritten to /services/, every one upcoming", async () => {
  let path: string | undefined = "/services/event/v1/GB/shazam-events?l=en&filter[isFuture]=true";
  const seen = new Set<string>();
  let pages = 0;
  const now = Date.now();
  while (path && pages < 200) {
    const { response, body } = await getJson(path);
    expect(response.status, path).toBe(200);
    const page = body as unknown as Upcoming;
    for (const { id } of page.data) {
      expect(seen.has(id), id).toBe(false);
      seen.add(id);
      const event = page.resources["shazam-events"]?.[id];
      const time = event?.attributes.time as { startTime?: string; timezone: string };
      expect(isUpcoming(time, now - 60_000)).toBe(true);
    }
    pages += 1;
    path = page.next ? servicesPathOfNext(page.next) : undefined;
    if (page.next) expect(path).toMatch(/^\/services\/event\/v1\/GB\/shazam-events\?.*offset=\d+/);
  }
  expect(pages).toBeGreaterThan(1);
  expect(seen.size).toBeGreaterThan(20);
});

test("upcoming events narrow by country, date range and geoHash, and answer the location", async () => {
  const { body } = await getJson("/services/event/v1/US/shazam-events?filter[isFuture]=true&countryCode=US");
  const page = body as unknown as Upcoming;
  for (const venue of Object.values(page.resources.venues ?? {})) {
    expect(
      (venue.attributes.address as { structuredAddress: { country: string } }).structuredAddress.country,
    ).toBe("US");
  }
  const near = await getJson("/services/event/v1/GB/shazam-events?geoHash=gcpvj0");
  expect(near.response.headers.get("x-shz-lat")).toMatch(/^51\.5/);
  expect((near.body.myLoc as { lat: number }).lat).toBeCloseTo(51.5, 1);
  const bad = await getJson("/services/event/v1/GB/shazam-events?from=2026-02-30");
  expect(bad.response.status).toBe(400);
  const both = await getJson("/services/event/v1/GB/shazam-events?countryCode=GB&geoHash=gcpvj0");
  expect(both.response.status).toBe(400);
});

test("an events answer carries the caller's position from the edge, and a shared copy carries none", async () => {
  const path = "/services/event/v1/FR/shazam-events?countryCode=FR";
  const fromParis = await SELF.fetch(`https://tunewave.test${path}`, {
    cf: { latitude: "48.8566", longitude: "2.3522" },
  } as RequestInit);
  await fromParis.arrayBuffer();
  expect(fromParis.headers.get("x-shz-lat")).toBe("48.8566");
  expect(fromParis.headers.get("x-shz-lng")).toBe("2.3522");
  const fromNowhere = await SELF.fetch(`https://tunewave.test${path}`);
  await fromNowhere.arrayBuffer();
  expect(fromNowhere.headers.get("x-shz-lat")).toBeNull();
});

test("upcoming events of an artist id no artist has are 404 (spec 001 §8)", async () => {
  const { response } = await getJson("/services/event/v1/GB/shazam-events?filter[isFuture]=true&artistId=1");
  expect(response.status).toBe(404);
});

test("unknown and malformed event ids are 404, never a 500", async () => {
  for (const id of ["123", "abc", "29209999999999", "2920%27%3Cscript%3E", "99990698522010"]) {
    const { response } = await getJson(`/services/event/v1/GB/shazam-events/${id}`);
    expect(response.status, id).toBe(404);
  }
});
