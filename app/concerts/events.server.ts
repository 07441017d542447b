import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { countryWords } from "#app/shell/places.server.ts";
import type { CountryWords } from "#app/shell/places.ts";
import type { Image } from "#app/shell/view.ts";
import { imageFromTemplate } from "#app/shell/view.ts";
import {
  artistPagePath,
  eventPath,
  eventQrServicePath,
  eventServicePath,
  eventsServicePath,
  isEventId,
  storefrontOf,
  trackPath,
} from "#rules/addresses.ts";
import { countryName } from "#rules/countries.ts";
import { SiteError } from "#rules/errors.ts";
import {
  attributionLogoSize,
  dateFilters,
  dateRangeOf,
  distanceMiles,
  type EventTimeEnrichment,
  encodeGeohash,
  enrichEventTime,
  eventArtistArtWidth,
  eventPhotoWidths,
  featuredBackgroundWidths,
  featuredLogoWidths,
  isCalendarDate,
  type LatLng,
  localDateOf,
  qrSizes,
  servicesPathOfNext,
  type UpcomingGroup,
  upcomingGroupOf,
  upcomingGroups,
  visitorPlaceOf,
} from "#rules/events.ts";
import { localizedPath } from "#rules/path.ts";
import { type EventResources, type EventsDocument, eventsDocumentSchema } from "#rules/schemas/events.ts";

type Context = Pick<AppLoadContext, "edge" | "services" | "cloudflare">;

/** A concert in a list: what a row shows and links to. */
export type EventCard = {
  id: string;
  href: string;
  name: string;
  artist: string;
  venue: string;
  city: string;
  country: string;
  time: EventTimeEnrichment;
  group: UpcomingGroup;
  /** Miles from the visitor, when their location is known. */
  miles: number | undefined;
};

export type Photo = { image: Image; alt: string };

export type EventPage = {
  id: string;
  name: string;
  path: string;
  url: string;
  artist: { id: string; name: string; href: string; image: Image | undefined };
  venue: { name: string; city: string; country: string; lat: number; lng: number };
  time: EventTimeEnrichment;
  /** ISO instants for JSON-LD; absent when the time is to be announced. */
  startTime: string | undefined;
  endTime: string | undefined;
  featured: { background: Image; logo: Image } | undefined;
  attribution: { name: string; logo: Image | undefined } | undefined;
  photos: Photo[];
  setlist: { title: string; href: string | undefined }[];
  playlists: { name: string; curator: string | undefined }[];
  qr: Image;
  upcoming: EventCard[];
  concertsHref: string;
  artistConcertsHref: string;
};

function first<T>(
  table: Record<string, T>,
  relationship: { data: { id: string }[] } | undefined,
): T | undefined {
  const id = relationship?.data[0]?.id;
  return id === undefined ? undefined : table[id];
}

/** Spec 002 §8 "Event ID but no matching data": such ids are dropped (logged). */
function cardsOf(
  context: Context,
  document: EventsDocument,
  visitor: { location: LatLng | undefined; country: string | undefined },
  now: number,
): EventCard[] {
  const { edge } = context;
  return document.data.flatMap(({ id }) => {
    const event = document.resources["shazam-events"][id];
    const venue = event && first(document.resources.venues, event.relationships.venues);
    const artist = event && first(document.resources.artists, event.relationships.artists);
    if (!event || !venue || !artist) {
      console.warn("Event ID but no matching data", id);
      return [];
    }
    const place = { ...venue.attributes.geo, country: venue.attributes.address.structuredAddress.country };
    return [
      {
        id,
        href: localizedPath(edge.lang, eventPath(id)),
        name: event.attributes.name,
        artist: artist.attributes.name,
        venue: venue.attributes.name,
        city: venue.attributes.address.structuredAddress.city ?? "",
        country: countryName(place.country, edge.lang),
        time: enrichEventTime(event.attributes.time, now, edge.locale),
        group: upcomingGroupOf(place, visitor),
        miles: visitor.location ? Math.round(distanceMiles(visitor.location, place)) : undefined,
      },
    ];
  });
}

/**
 * Spec 001 §7 "in preview mode a random r parameter is added" (`preview=true`, 000 §2, 001 §2):
 * each event call is then a new address, which no cache on the way (the proxy's, the upstream's)
 * has kept, so whoever previews an event sees its data as it is now.
 */
export function previewQuery(
  preview: boolean | undefined,
  random: () => string = () => crypto.randomUUID().slice(0, 8),
): { r?: string } {
  return preview === true ? { r: random() } : {};
}

function upcomingPath(country: string, lang: string, query: Record<string, string | undefined>): string {
  return eventsServicePath(country, { l: lang, "filter[isFuture]": "true", ...query });
}

/** Spec 002 §3 photos: 500 and 1500 px, as JPEG and as WebP (for the browsers that take it). */
function photoImage(template: string): Image {
  const sized = (width: number, format: string) =>
    template.replace("{w}x{h}", `${width}x${width}`).replace(/\.jpg$/, `.${format}`);
  const largest = eventPhotoWidths[eventPhotoWidths.length - 1] ?? 1500;
  return {
    src: sized(largest, "jpg"),
    srcSet: eventPhotoWidths.map((w) => `${sized(w, "jpg")} ${w}w`).join(", "),
    webpSrcSet: eventPhotoWidths.map((w) => `${sized(w, "webp")} ${w}w`).join(", "),
    width: largest,
    height: largest,
  };
}

function widthImage(template: string, widths: readonly number[], height: (w: number) => number): Image {
  const sized = (w: number) => template.replace("{w}x{h}", `${w}x${height(w)}`).replace("{w}", String(w));
  const largest = widths[widths.length - 1] ?? 0;
  return {
    src: sized(largest),
    srcSet: widths.map((w) => `${sized(w)} ${w}w`).join(", "),
    width: largest,
    height: height(largest),
  };
}

/** The provider's logo at "0x50": 50 px high, drawn 150 px wide (spec 002 §3). */
function attributionImage(template: string): Image {
  const src = template.replace("{w}x{h}", attributionLogoSize);
  return { src, srcSet: `${src} 150w`, width: 150, height: 50 };
}

/** The QR code of an event page (spec 001 §7 QR image; 002 §3 sizes 110, 220, 330). */
export function qrImage(lang: string, country: string, eventId: string): Image {
  const sized = (w: number) => eventQrServicePath(lang, country, eventId, w);
  const largest = qrSizes[qrSizes.length - 1] ?? 330;
  return {
    src: sized(largest),
    srcSet: qrSizes.map((w) => `${sized(w)} ${w}w`).join(", "),
    width: largest,
    height: largest,
  };
}

/** Turns an upstream not-found (or a malformed id) into the page's 'concert unavailable'. */
async function orConcertUnavailable<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (
      error instanceof SiteError &&
      (error.type === "notfound" || error.status === 404 || error.type === "invalidparam")
    ) {
      throw new SiteError("notfound", "concert unavailable");
    }
    throw error;
  }
}

/**
 * Spec 002 §2 `/event/{eventId}`: "On load the artist, the upcoming events for that event and the
 * event itself are requested together". The artist's id comes with the event id (origin/events.ts
 * `eventIdOf`), so the three calls start at once.
 */
export async function loadEventPage(
  context: Context,
  options: { eventId: string | undefined; origin: string; now: number },
): Promise<EventPage> {
  const { edge, services } = context;
  const eventId = options.eventId ?? "";
  if (!isEventId(eventId)) throw new SiteError("notfound", "concert unavailable");
  const country = storefrontOf(edge.country);
  const artistId = eventId.slice(5);
  const [details, upcoming] = await Promise.all([
    orConcertUnavailable(() =>
      services.getJson(
        eventServicePath(country, eventId, { l: edge.lang, ...previewQuery(edge.params.preview) }),
        eventsDocumentSchema,
      ),
    ),
    services
      .getJson(
        upcomingPath(country, edge.lang, { artistId, ...previewQuery(edge.params.preview) }),
        eventsDocumentSchema,
      )
      .catch((error: unknown) => {
        // Spec 002 §8 "Event call failure: passes null data plus the error".
        console.warn("Event processing failed", error);
        return undefined;
      }),
  ]);
  const resources: EventResources = details.resources;
  const event = resources["shazam-events"][eventId];
  const venue = event && first(resources.venues, event.relationships.venues);
  const artist = event && first(resources.artists, event.relationships.artists);
  if (!event || !venue || !artist) throw new SiteError("notfound", "concert unavailable");

  const path = localizedPath(edge.lang, eventPath(eventId));
  const url = new URL(path, options.origin).href;
  const attributes = event.attributes;
  const artistName = artist.attributes.name;
  const album = first(resources["photo-albums"], event.relationships["photo-albums"]);
  const setlist = first(resources.setlists, event.relationships.setlists);
  const playlists = (event.relationships.playlists?.data ?? []).flatMap((ref) => {
    const playlist = resources.playlists[ref.id];
    return playlist ? [{ name: playlist.attributes.name, curator: playlist.attributes.curatorName }] : [];
  });
  const attribution = attributes.provider?.attribution;
  const artistArt = artist.attributes.artwork?.url;
  return {
    id: eventId,
    name: attributes.name,
    path,
    url,
    artist: {
      id: artist.id,
      name: artistName,
      href: localizedPath(edge.lang, artistPagePath(artist.id, artist.attributes.alias ?? "-")),
      image: artistArt ? imageFromTemplate(artistArt, [eventArtistArtWidth]) : undefined,
    },
    venue: {
      name: venue.attributes.name,
      city: venue.attributes.address.structuredAddress.city ?? "",
      country: countryName(venue.attributes.address.structuredAddress.country, edge.lang),
      ...venue.attributes.geo,
    },
    time: enrichEventTime(attributes.time, options.now, edge.locale),
    startTime: attributes.time.startTime,
    endTime: attributes.time.endTime,
    featured: attributes.featuredEvent && {
      background: widthImage(attributes.featuredEvent.background.url, featuredBackgroundWidths, (w) => w),
      logo: widthImage(attributes.featuredEvent.logo.url, featuredLogoWidths, (w) => Math.round(w / 3)),
    },
    attribution: attribution?.name
      ? { name: attribution.name, logo: attribution.logo ? attributionImage(attribution.logo) : undefined }
      : undefined,
    photos: (album?.attributes.photos ?? []).map((photo, i) => ({
      image: photoImage(photo.url),
      alt: `${attributes.name} (${i + 1})`,
    })),
    setlist: (setlist?.attributes.entries ?? []).map((entry) => ({
      title: entry.title,
      href:
        entry.key && entry.alias ? localizedPath(edge.lang, trackPath(entry.key, entry.alias)) : undefined,
    })),
    playlists,
    qr: qrImage(edge.lang, country, eventId),
    upcoming: upcoming
      ? cardsOf(context, upcoming, { location: undefined, country: edge.country }, options.now)
          .filter((card) => card.id !== eventId)
          .slice(0, 6)
      : [],
    concertsHref: localizedPath(edge.lang, "/concerts"),
    artistConcertsHref: `${localizedPath(edge.lang, "/concerts")}?artist=${artist.id}`,
  };
}

/** The concert lists (spec 001 §2 "all concerts, nearby concerts, concerts by country"). */
export const concertScopes = ["all", "near", "country"] as const;
export type ConcertScope = (typeof concertScopes)[number];

const coordinate = (min: number, max: number) =>
  v.pipe(v.string(), v.transform(Number), v.number(), v.finite(), v.minValue(min), v.maxValue(max));

/** The list's address: every filter is a query parameter, so a list is a link a person can share. */
const listQuerySchema = v.object({
  in: v.optional(v.picklist(concertScopes), "all"),
  when: v.optional(v.picklist(dateFilters), "all"),
  from: v.optional(v.pipe(v.string(), v.check(isCalendarDate))),
  to: v.optional(v.pipe(v.string(), v.check(isCalendarDate))),
  artist: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/))),
  lat: v.optional(coordinate(-90, 90)),
  lng: v.optional(coordinate(-180, 180)),
  offset: v.optional(v.pipe(v.string(), v.regex(/^\d{1,5}$/), v.transform(Number))),
});
export type ConcertListQuery = v.InferOutput<typeof listQuerySchema>;

export type ConcertList = {
  query: ConcertListQuery;
  /** The location the list is measured from, and where it came from. */
  location: (LatLng & { source: "browser" | "edge" }) | undefined;
  /** The list's country as the scope and group labels take it (decision 060). */
  country: CountryWords;
  groups: { group: UpcomingGroup; cards: EventCard[] }[];
  /** The dates the date filter covers, in the visitor's zone. */
  range: { from: string; to: string } | undefined;
  today: string;
  nextHref: string | undefined;
  artists: { id: string; name: string }[];
  /** The list's own address with some parameters changed (undefined removes one). */
  baseHref: string;
};

/**
 * One page of a concert list. The location is the browser's (`lat`/`lng` from the Near Me button or
 * the stored `maploc`), else the centre of the edge's cell; "near" sorts by distance from it, "country" keeps the
 * visitor's country, and every list is grouped lt100miles / country / all (spec 002 §3, §5).
 */
export async function loadConcertList(
  context: Context,
  search: URLSearchParams,
  now: number,
): Promise<ConcertList> {
  const { edge, services } = context;
  // A GET form sends its empty fields too: an empty field is no filter.
  const given = Object.fromEntries([...search].filter(([, value]) => value !== ""));
  const parsed = v.safeParse(listQuerySchema, given);
  if (!parsed.success) throw new SiteError("invalidparam", "The concert filters are not valid");
  const query = parsed.output;
  if (query.when === "range" && !query.from && !query.to) query.when = "all";
  const country = storefrontOf(edge.country);
  // Where the edge placed the visitor, rounded to a cell: the visitors of one cell and one "today"
  // share a document (decision 055).
  const place = visitorPlaceOf(context.cloudflare.cf);
  const today = localDateOf(now, place.timeZone);
  let range: { from: string; to: string } | undefined;
  if (query.when === "range") {
    const from = query.from ?? today;
    const to = query.to ?? from;
    if (from > to) throw new SiteError("invalidparam", "A date range needs a start on or before its end");
    range = { from, to };
  } else if (query.when !== "all") range = dateRangeOf(query.when, today);

  const browser =
    query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : undefined;
  const location = browser
    ? { ...browser, source: "browser" as const }
    : place.point
      ? { ...place.point, source: "edge" as const }
      : undefined;
  const placeQuery =
    query.in === "country"
      ? { countryCode: country }
      : query.in === "near" && location
        ? { geoHash: encodeGeohash(location, 7) }
        : {};
  const document = await services
    .getJson(
      upcomingPath(country, edge.lang, {
        ...placeQuery,
        artistId: query.artist,
        from: range?.from,
        to: range?.to,
        offset: query.offset ? String(query.offset) : undefined,
        ...previewQuery(edge.params.preview),
      }),
      eventsDocumentSchema,
    )
    .catch((error: unknown) => {
      // Spec 001 §8 "a missing artist id for events also gives 404": the not-found page.
      if (query.artist && error instanceof SiteError && error.status === 404)
        throw new SiteError("notfound", `No artist ${query.artist}`);
      throw error;
    });
  const cards = cardsOf(context, document, { location, country }, now);
  const groups = upcomingGroups
    .map((group) => ({ group, cards: cards.filter((card) => card.group === group) }))
    .filter((g) => g.cards.length > 0);

  const listPath = localizedPath(edge.lang, "/concerts");
  const own = new URLSearchParams();
  for (const [name, value] of Object.entries(given)) if (name !== "offset") own.set(name, value);
  const nextPath = document.next ? servicesPathOfNext(document.next) : undefined;
  const nextOffset = nextPath ? new URL(nextPath, "https://x.invalid").searchParams.get("offset") : null;
  const nextParams = new URLSearchParams(own);
  if (nextOffset) nextParams.set("offset", nextOffset);

  const artists = await services
    .getJson(upcomingPath(country, edge.lang, {}), eventsDocumentSchema)
    .then((all) => Object.values(all.resources.artists).map((a) => ({ id: a.id, name: a.attributes.name })))
    .catch(() => []);
  return {
    query,
    location,
    country: countryWords(country, edge.lang),
    groups,
    range,
    today,
    nextHref: nextOffset ? `${listPath}?${nextParams}` : undefined,
    // The artists of the soonest concerts everywhere: the filter's choices.
    artists: [...new Map(artists.map((a) => [a.id, a])).values()].sort((a, b) =>
      a.name.localeCompare(b.name),
    ),
    baseHref: own.size > 0 ? `${listPath}?${own}` : listPath,
  };
}
