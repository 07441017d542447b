import * as v from "valibot";
import { type ArtistRow, allArtists } from "#origin/db/artists.ts";
import { venues } from "#origin/db/places.ts";
import { allArtistPlaylists, type PlaylistRow } from "#origin/db/playlists.ts";
import type { Database } from "#origin/db/rows.ts";
import { allTracks, type TrackRow } from "#origin/db/tracks.ts";
import type { OriginApp } from "#origin/env.ts";
import {
  type Catalogue,
  eventById,
  eventResources,
  type ScheduledEvent,
  type UpcomingQuery,
  upcomingEvents,
  upcomingPageSize,
} from "#origin/events.ts";
import {
  cachePolicy,
  countrySchema,
  intParam,
  invalidParam,
  languageSchema,
  notFound,
  parseParams,
} from "#origin/http.ts";
import { eventPath } from "#rules/addresses.ts";
import { siteUrl } from "#rules/env.ts";
import { decodeGeohash, isCalendarDate, type LatLng, qrSizes } from "#rules/events.ts";
import { exactLanguage, localizedPath } from "#rules/languages.ts";

/** Upcoming lists move with the clock: kept a minute, like counts. */
const eventsCachePolicy = "public, max-age=60";

const coordinate = (min: number, max: number) =>
  v.pipe(v.string(), v.transform(Number), v.number("Not a coordinate"), v.minValue(min), v.maxValue(max));

const upcomingQuerySchema = v.object({
  l: v.optional(languageSchema),
  "filter[isFuture]": v.optional(v.literal("true", "filter[isFuture] must be true")),
  artistId: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, "artistId must be digits"))),
  countryCode: v.optional(countrySchema),
  geoHash: v.optional(
    v.pipe(
      v.string(),
      v.check((hash) => decodeGeohash(hash) !== undefined, "geoHash is not a geohash"),
    ),
  ),
  boundingBox: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^-?[\d.]+,-?[\d.]+,-?[\d.]+,-?[\d.]+$/, "boundingBox is south,west,north,east"),
      v.transform((text) => text.split(",").map(Number) as [number, number, number, number]),
      v.check(
        ([s, w, n, e]) => s >= -90 && n <= 90 && s <= n && w >= -180 && e <= 180,
        "boundingBox is out of range",
      ),
    ),
  ),
  from: v.optional(v.pipe(v.string(), v.check(isCalendarDate, "from is not a date (YYYY-MM-DD)"))),
  to: v.optional(v.pipe(v.string(), v.check(isCalendarDate, "to is not a date (YYYY-MM-DD)"))),
  offset: intParam("offset", 0, 10_000),
  r: v.optional(v.string()),
});

const headerLocationSchema = v.object({ lat: coordinate(-90, 90), lng: coordinate(-180, 180) });

async function loadCatalogue(d1: Database): Promise<Catalogue> {
  const [artists, tracks, playlists, venueRows] = await Promise.all([
    allArtists(d1),
    allTracks(d1),
    allArtistPlaylists(d1),
    venues(d1),
  ]);
  return {
    artists: artists as ArtistRow[],
    tracksByArtist: groupBy(tracks, (t: TrackRow) => t.artist_id),
    playlistsByArtist: groupBy(playlists, (p: PlaylistRow) => p.artist_id ?? 0),
    venues: venueRows,
  };
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const item of items) map.set(keyOf(item), [...(map.get(keyOf(item)) ?? []), item]);
  return map;
}

function idList(events: readonly ScheduledEvent[]) {
  return events.map((e) => ({ id: e.id, type: "shazam-events" }));
}

/** The caller's location: x-shz-lat / x-shz-lng (spec 002 §3), when both parse. */
function headerLocation(request: Request): LatLng | undefined {
  const parsed = v.safeParse(headerLocationSchema, {
    lat: request.headers.get("x-shz-lat") ?? undefined,
    lng: request.headers.get("x-shz-lng") ?? undefined,
  });
  return parsed.success ? parsed.output : undefined;
}

export function registerEvents(origin: OriginApp) {
  /**
   * Spec 002 §7 "GET upcoming events": artistId, one of boundingBox, geoHash or countryCode, from,
   * to, offset. The answer has data, resources, next (the provider's paging link) and myLoc; the
   * location is also in the x-shz-lat / x-shz-lng headers.
   */
  origin.get("/event/v1/:country/shazam-events", async (c) => {
    const { country } = parseParams(v.object({ country: countrySchema }), {
      country: c.req.param("country"),
    });
    const query = parseParams(upcomingQuerySchema, c.req.query());
    const places = [query.countryCode, query.geoHash, query.boundingBox].filter((p) => p !== undefined);
    if (places.length > 1) throw invalidParam("Use one of boundingBox, geoHash or countryCode");
    if (query.from && query.to && query.from > query.to) throw invalidParam("from is after to");
    const fromHeaders = headerLocation(c.req.raw);
    const myLoc = (query.geoHash ? decodeGeohash(query.geoHash) : undefined) ?? fromHeaders;
    const catalogue = await loadCatalogue(c.var.db);
    // Spec 001 §8 "a missing artist id for events also gives 404": an artist no one has is not
    // an artist without concerts.
    const artistId = query.artistId;
    if (artistId && !catalogue.artists.some((a) => String(a.id) === artistId || a.adamid === artistId))
      throw notFound(`No artist ${artistId}`);
    const upcomingQuery: UpcomingQuery = {
      artistId: query.artistId,
      countryCode: query.countryCode,
      boundingBox: query.boundingBox,
      near: query.geoHash ? myLoc : undefined,
      from: query.from,
      to: query.to,
    };
    const all = upcomingEvents(catalogue, upcomingQuery, Date.now());
    const offset = query.offset ?? 0;
    const page = all.slice(offset, offset + upcomingPageSize);
    let next: string | undefined;
    if (offset + upcomingPageSize < all.length) {
      // The provider's own address (spec 002 §7: the edge rewrites it to the /services/ path).
      const url = new URL(c.req.url);
      url.pathname = url.pathname.replace(/^\/services/, "");
      url.searchParams.set("offset", String(offset + upcomingPageSize));
      next = url.href;
    }
    const body = {
      data: idList(page),
      resources: eventResources(catalogue, page, { now: Date.now(), lang: query.l ?? "en", detail: false }),
      ...(next ? { next } : {}),
      ...(myLoc ? { myLoc } : {}),
      country,
    };
    const headers: Record<string, string> = {
      "Content-Type": "application/json; charset=UTF-8",
      // An answer shaped by the caller's own location headers belongs to that caller.
      "Cache-Control": fromHeaders && !query.geoHash ? cachePolicy.never : eventsCachePolicy,
    };
    if (myLoc) {
      headers["x-shz-lat"] = String(myLoc.lat);
      headers["x-shz-lng"] = String(myLoc.lng);
    }
    return new Response(JSON.stringify(body), { headers });
  });

  /**
   * Spec 002 §7 "GET event details by {shazamid}": resources shazam-events, photo-albums, artists,
   * setlists, watch-faces, featured-playlists, playlists, wallpapers, and a data list of event ids.
   */
  origin.get("/event/v1/:country/shazam-events/:id", async (c) => {
    parseParams(v.object({ country: countrySchema }), { country: c.req.param("country") });
    const query = parseParams(upcomingQuerySchema, c.req.query());
    const catalogue = await loadCatalogue(c.var.db);
    const event = eventById(catalogue, c.req.param("id"));
    if (!event) throw notFound("concert unavailable");
    const body = {
      data: idList([event]),
      resources: eventResources(catalogue, [event], { now: Date.now(), lang: query.l ?? "en", detail: true }),
    };
    return c.json(body, 200, { "Cache-Control": eventsCachePolicy });
  });

  /** Spec 002 §7 "GET /services/musicevents/artistsummary/GB/en/{id}: artist event summary". */
  origin.get("/musicevents/artistsummary/:country/:lang/:id", async (c) => {
    const params = parseParams(
      v.object({
        country: countrySchema,
        lang: languageSchema,
        id: v.pipe(v.string(), v.regex(/^\d{1,15}$/, "Not an artist id")),
      }),
      c.req.param(),
    );
    const catalogue = await loadCatalogue(c.var.db);
    const artist = catalogue.artists.find((a) => String(a.id) === params.id || a.adamid === params.id);
    // Spec 001 §8 "a missing artist id for events also gives 404".
    if (!artist) throw notFound(`No artist ${params.id}`);
    const upcoming = upcomingEvents(
      catalogue,
      {
        artistId: String(artist.id),
        countryCode: undefined,
        boundingBox: undefined,
        near: undefined,
        from: undefined,
        to: undefined,
      },
      Date.now(),
    );
    const inCountry = upcoming.filter((e) => e.venue.country === params.country);
    const first = upcoming[0];
    return c.json(
      {
        artistId: String(artist.id),
        adamid: artist.adamid,
        name: artist.name,
        upcomingCount: upcoming.length,
        upcomingInCountryCount: inCountry.length,
        ...(first
          ? {
              nextEvent: {
                id: first.id,
                name: first.name,
                startTime: first.startTime,
                city: first.venue.city,
              },
            }
          : {}),
      },
      200,
      { "Cache-Control": eventsCachePolicy },
    );
  });

  /** Spec 001 §7 "QR image /services/qr/event/{language}/{country}/{eventId}/{w}x{h}.svg": the event page's address. */
  origin.get("/qr/event/:language/:country/:eventId/:size", async (c) => {
    const langKey = exactLanguage(c.req.param("language"));
    if (!langKey) throw notFound("Unknown language");
    parseParams(v.object({ country: countrySchema }), { country: c.req.param("country") });
    const size = /^(\d{2,4})x(\d{2,4})\.svg$/.exec(c.req.param("size"));
    const width = Number(size?.[1]);
    if (!size || width !== Number(size[2]) || !(qrSizes as readonly number[]).includes(width)) {
      throw notFound(`QR codes come in ${qrSizes.map((s) => `${s}x${s}`).join(", ")}`);
    }
    const catalogue = await loadCatalogue(c.var.db);
    const event = eventById(catalogue, c.req.param("eventId"));
    if (!event) throw notFound("concert unavailable");
    // The code holds the event page's address on the site's own origin, never the Host that asked.
    const target = siteUrl(c.env, localizedPath(langKey, eventPath(event.id))).href;
    return new Response(await qrSvg(target, width), {
      headers: { "Content-Type": "image/svg+xml; charset=UTF-8", "Cache-Control": "private, max-age=86400" },
    });
  });
}

/**
 * A QR code (error correction M, with the standard 4-module quiet zone) as a square SVG. The
 * encoder is loaded on first use: few requests ask for a code (decision 061).
 */
export async function qrSvg(text: string, size: number): Promise<string> {
  const { default: qrcode } = await import("qrcode-generator");
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const modules = qr.getModuleCount();
  const quiet = 4;
  const span = modules + quiet * 2;
  let path = "";
  for (let row = 0; row < modules; row++) {
    for (let col = 0; col < modules; col++) {
      if (qr.isDark(row, col)) path += `M${col + quiet} ${row + quiet}h1v1h-1z`;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${span} ${span}" shape-rendering="crispEdges"><title>QR code</title><rect width="${span}" height="${span}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
