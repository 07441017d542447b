/**
 * Concert rules from the spec that the pages (app/) and the embedded origin both apply: the event
 * time enrichment (002 §3, §4), the upcoming-events filter (002 §5), distances, the image sizes
 * (002 §9). Pure code only: no Node or Workers APIs (Intl is in both).
 */

import { servicesPathOf, servicesRootPathOf } from "./addresses";
import { dateTimeFormat } from "./intl";
import { dayMs } from "./time";

/** Spec 002 §9 "Distance threshold 100 miles". */
export const nearDistanceMiles = 100;
/** Spec 002 §9 "lead-up window 3 days". */
export const leadUpDays = 3;
/** Spec 002 §9 "Image widths: event photos 500 and 1500". */
export const eventPhotoWidths = [500, 1500] as const;
/** Spec 002 §9 "artist art 400". */
export const eventArtistArtWidth = 400;
/** Spec 002 §3 "background 1440x1440 with srcset widths at 3x of 375 up to 1440". */
export const featuredBackgroundWidths = [375, 750, 1125, 1440] as const;
/** Spec 002 §3 "logo widths 300 to 600". */
export const featuredLogoWidths = [300, 400, 500, 600] as const;
/** Spec 002 §3 "QR 330x330 through an {eventId} template with sizes 110, 220, 330". */
export const qrSizes = [110, 220, 330] as const;
/** Spec 002 §3 "provider.attribution.logo (size placeholder replaced with 0x50)". */
export const attributionLogoSize = "0x50";

const earthRadiusMiles = 3958.8;

/** The time block of an event (spec 002 §3 Event `time`): instants in ISO 8601, an IANA zone. */
export type EventTime = { startTime?: string | undefined; endTime?: string | undefined; timezone: string };

/** Spec 002 §3 "Event time enrichment". Text fields are empty when the event has no start. */
export type EventTimeEnrichment = {
  /** Long weekday ("Saturday"). */
  day: string;
  /** Short month ("Nov"). */
  month: string;
  /** Two-digit day of the month ("07"). */
  date: string;
  /** Weekday with the long date ("Saturday, 7 November 2026"). */
  fullday: string;
  /** The medium date ("7 Nov 2026"). */
  fulldate: string;
  /** 12-hour start ("7:30 PM"). */
  startHourMin: string;
  /** The long date with the start and zone. */
  fulldatetime: string;
  /** The zone's short name at the start ("GMT", "EST", "GMT+5:30"); the spec's spelling. */
  timezoneAbbrevation: string;
  /** Hours between start and end, one decimal; 0 without an end. */
  duration: number;
  /** The event's local calendar date (YYYY-MM-DD); empty without a start. */
  localDate: string;
  isFuture: boolean;
  isPreShow: boolean;
  isPostShow: boolean;
  isLeadUpShow: boolean;
  isActiveShow: boolean;
};

function instant(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function localDateOf(ms: number, timeZone: string): string {
  const parts = dateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** Offset of a zone from UTC at an instant, in minutes (east positive). */
function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const parts = dateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(ms);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * The instant of a wall-clock time in a zone. A time skipped by a DST change moves forward by the
 * gap (02:30 on a spring-forward night is 03:30); a repeated one takes the earlier instant.
 */
export function zonedInstant(date: string, hour: number, minute: number, timeZone: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hour, minute);
  const before = zoneOffsetMinutes(wall - dayMs / 2, timeZone);
  const after = zoneOffsetMinutes(wall + dayMs / 2, timeZone);
  const earlier = wall - Math.max(before, after) * 60_000;
  if (zoneOffsetMinutes(earlier, timeZone) === Math.max(before, after)) return earlier;
  return wall - Math.min(before, after) * 60_000;
}

/** Spec 002 §3 and §4: the event time enrichment, in the event's own zone and the page's locale. */
export function enrichEventTime(time: EventTime, now: number, locale: string): EventTimeEnrichment {
  const start = instant(time.startTime);
  const end = instant(time.endTime);
  if (start === undefined) {
    // Spec 002 §3 "Without a time, isPreShow and isFuture are true."
    return {
      day: "",
      month: "",
      date: "",
      fullday: "",
      fulldate: "",
      startHourMin: "",
      fulldatetime: "",
      timezoneAbbrevation: "",
      duration: 0,
      localDate: "",
      isFuture: true,
      isPreShow: true,
      isPostShow: false,
      isLeadUpShow: false,
      isActiveShow: false,
    };
  }
  const timeZone = time.timezone;
  const format = (options: Intl.DateTimeFormatOptions) =>
    dateTimeFormat(locale, { timeZone, ...options }).format(start);
  const zoneName =
    dateTimeFormat(locale, { timeZone, timeZoneName: "short" })
      .formatToParts(start)
      .find((p) => p.type === "timeZoneName")?.value ?? timeZone;
  const finish = end !== undefined && end > start ? end : start;
  const untilStart = start - now;
  return {
    day: format({ weekday: "long" }),
    month: format({ month: "short" }),
    date: format({ day: "2-digit" }),
    fullday: format({ weekday: "long", day: "numeric", month: "long", year: "numeric" }),
    fulldate: format({ day: "numeric", month: "short", year: "numeric" }),
    startHourMin: format({ hour: "numeric", minute: "2-digit", hour12: true }),
    fulldatetime: format({
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "numeric",
      minute: "2-digit",
      hour12: true,
      timeZoneName: "short",
    }),
    timezoneAbbrevation: zoneName,
    duration: Math.round((finish - start) / 360_000) / 10,
    localDate: localDateOf(start, timeZone),
    isFuture: untilStart > 0,
    // Spec 002 §4 "pre-show until start, active between start and end, post-show after end;
    // lead-up if start is within 3 days".
    isPreShow: now < start,
    isActiveShow: now >= start && now < finish,
    isPostShow: now >= finish,
    isLeadUpShow: untilStart >= 0 && untilStart <= leadUpDays * dayMs,
  };
}

/** Spec 002 §5 "only events without a start or with a start in the future". */
export function isUpcoming(time: EventTime, now: number): boolean {
  const start = instant(time.startTime);
  return start === undefined || start > now;
}

export type LatLng = { lat: number; lng: number };

/** Great-circle distance in miles (haversine). */
export function distanceMiles(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * earthRadiusMiles * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Spec 002 §3 "Upcoming events: grouped into lt100miles, country, all". */
export const upcomingGroups = ["lt100miles", "country", "all"] as const;
export type UpcomingGroup = (typeof upcomingGroups)[number];

/**
 * Spec 002 §5 "the location filter uses distance under 100 miles; country match uses the user's
 * country": the group of a venue for a visitor (a location and a country, either unknown).
 */
export function upcomingGroupOf(
  venue: LatLng & { country: string },
  visitor: { location: LatLng | undefined; country: string | undefined },
): UpcomingGroup {
  if (visitor.location && distanceMiles(visitor.location, venue) < nearDistanceMiles) return "lt100miles";
  if (visitor.country && venue.country === visitor.country) return "country";
  return "all";
}

/** The concert list's date filters (spec 001 §2 "today, tomorrow, this weekend, custom range, all upcoming"). */
export const dateFilters = ["all", "today", "tomorrow", "weekend", "range"] as const;
export type DateFilter = (typeof dateFilters)[number];

/** YYYY-MM-DD plus whole days (calendar arithmetic, so months and years roll over). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The local dates (inclusive) a date filter covers, from the visitor's today. This weekend is the
 * coming Saturday and Sunday, or the rest of it when today is one of them.
 */
export function dateRangeOf(
  filter: Exclude<DateFilter, "all" | "range">,
  today: string,
): { from: string; to: string } {
  if (filter === "today") return { from: today, to: today };
  if (filter === "tomorrow") return { from: addDays(today, 1), to: addDays(today, 1) };
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  if (weekday === 0) return { from: today, to: today };
  const saturday = addDays(today, (6 - weekday + 7) % 7);
  return { from: saturday, to: addDays(saturday, 1) };
}

/**
 * Whether an event falls in a date range: its start's calendar date in the event's own zone, so
 * "today" ends at midnight where the concert is. An event without a start is in no range.
 */
export function isInDateRange(time: EventTime, range: { from?: string; to?: string }): boolean {
  if (!range.from && !range.to) return true;
  const start = instant(time.startTime);
  if (start === undefined) return false;
  const date = localDateOf(start, time.timezone);
  return (!range.from || date >= range.from) && (!range.to || date <= range.to);
}

/** A calendar date parameter: YYYY-MM-DD that is a real date. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  return new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
}

const geohashAlphabet = "0123456789bcdefghjkmnpqrstuvwxyz";

/** A geohash of a point (the upcoming-events call's `geoHash`); 6 characters is about 1 km. */
export function encodeGeohash(point: LatLng, precision = 6): string {
  const lat: number[] = [-90, 90];
  const lng: number[] = [-180, 180];
  let hash = "";
  let bits = 0;
  let value = 0;
  let even = true;
  while (hash.length < precision) {
    const span = even ? lng : lat;
    const coordinate = even ? point.lng : point.lat;
    const mid = ((span[0] ?? 0) + (span[1] ?? 0)) / 2;
    value <<= 1;
    if (coordinate >= mid) {
      value |= 1;
      span[0] = mid;
    } else span[1] = mid;
    even = !even;
    if (++bits === 5) {
      hash += geohashAlphabet[value];
      bits = 0;
      value = 0;
    }
  }
  return hash;
}

/** The centre of a geohash cell; undefined for a malformed hash. */
export function decodeGeohash(hash: string): LatLng | undefined {
  if (!/^[0-9b-hjkmnp-z]{1,12}$/.test(hash)) return undefined;
  const lat = [-90, 90];
  const lng = [-180, 180];
  let even = true;
  for (const char of hash) {
    const value = geohashAlphabet.indexOf(char);
    for (let bit = 4; bit >= 0; bit--) {
      const span = even ? lng : lat;
      const mid = ((span[0] ?? 0) + (span[1] ?? 0)) / 2;
      if ((value >> bit) & 1) span[0] = mid;
      else span[1] = mid;
      even = !even;
    }
  }
  return { lat: ((lat[0] ?? 0) + (lat[1] ?? 0)) / 2, lng: ((lng[0] ?? 0) + (lng[1] ?? 0)) / 2 };
}

/** The visitor's position as the edge knows it (Cloudflare's `request.cf` latitude and longitude). */
export function edgeLocationOf(
  cf: { latitude?: unknown; longitude?: unknown } | undefined,
): LatLng | undefined {
  if (typeof cf?.latitude !== "string" && typeof cf?.latitude !== "number") return undefined;
  if (typeof cf.longitude !== "string" && typeof cf.longitude !== "number") return undefined;
  const lat = Number(cf.latitude);
  const lng = Number(cf.longitude);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180)
    return undefined;
  return { lat, lng };
}

/**
 * Geohash length of the cell a concert list is measured from when only the edge located the
 * visitor: about 4.9 × 4.9 km at the equator, smaller towards the poles (decision 055).
 */
export const visitorCellPrecision = 5;

/** Where the edge places a visitor, at the granularity a shared document may depend on. */
export type VisitorPlace = {
  /** The geohash cell of the edge's coordinates; undefined when the edge gave none. */
  cell: string | undefined;
  /** The cell's centre: the point lists are sorted and grouped from, the same for everyone in it. */
  point: LatLng | undefined;
  /** The visitor's IANA zone as the edge located them, else UTC: their "today". */
  timeZone: string;
};

/** The visitor's time zone from the edge (`cf.timezone`) if the runtime knows it; else UTC. */
export function visitorTimeZoneOf(cf: { timezone?: unknown } | undefined): string {
  const zone = cf?.timezone;
  if (typeof zone !== "string") return "UTC";
  try {
    dateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

/**
 * The edge's place of a visitor, rounded to a cell so that the visitors of one cell share a concert
 * list (its render and its cache key read this one function).
 */
export function visitorPlaceOf(
  cf: { latitude?: unknown; longitude?: unknown; timezone?: unknown } | undefined,
): VisitorPlace {
  const located = edgeLocationOf(cf);
  const cell = located ? encodeGeohash(located, visitorCellPrecision) : undefined;
  return { cell, point: cell ? decodeGeohash(cell) : undefined, timeZone: visitorTimeZoneOf(cf) };
}

/**
 * Spec 002 §3 "the caller's location in x-shz-lat / x-shz-lng": an events answer without them
 * gets the edge's position of this caller. Added to the answer, not the upstream request, so a
 * copy the proxy shares between callers never carries anyone's position.
 */
export function withCallerLocation(path: string, answer: Response, caller: LatLng | undefined): Response {
  if (!caller || !path.startsWith("/services/event/") || answer.headers.has("x-shz-lat")) return answer;
  const located = new Response(answer.body, answer);
  located.headers.set("x-shz-lat", String(caller.lat));
  located.headers.set("x-shz-lng", String(caller.lng));
  return located;
}

/** Rewrites an upcoming-events `next` link from the provider host to the site's /services/ path (spec 002 §7). */
export function servicesPathOfNext(next: string): string | undefined {
  try {
    const url = new URL(next, "https://provider.invalid");
    if (!url.pathname.startsWith("/event/") && !url.pathname.startsWith("/services/event/")) return undefined;
    return `${servicesPathOf(servicesRootPathOf(url.pathname))}${url.search}`;
  } catch {
    return undefined;
  }
}
