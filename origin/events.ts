import type { ArtistRow } from "#origin/db/artists.ts";
import type { VenueRow } from "#origin/db/places.ts";
import type { PlaylistRow } from "#origin/db/playlists.ts";
import type { TrackRow } from "#origin/db/tracks.ts";
import {
  addDays,
  distanceMiles,
  isInDateRange,
  isUpcoming,
  type LatLng,
  zonedInstant,
} from "#rules/events.ts";
import { dayMs } from "#rules/time.ts";
import { artworkTemplate, eventMedia, eventPhotoCount, hash32, unitHash } from "./catalog-rules";

/**
 * The concert schedule of the embedded origin: a pure function of the catalogue (artists, their
 * tracks and playlists, the venues) and a week number, like the charts' seeded counts. Each artist
 * may play up to `slotsPerWeek` shows a week; whether a show exists, where, on which day and at
 * what local hour all come from seeded hashes, so an event id names the same concert forever and
 * "upcoming" only moves with the request's clock.
 */

/** Monday 1970-01-05: weeks start on Mondays. */
const firstMonday = Date.UTC(1970, 0, 5);
/** Shows an artist may play in one week. */
const slotsPerWeek = 3;
/** Share of (artist, week, slot) triples that hold a show. */
const showShare = 0.5;
/** Share of shows announced without a time yet. */
const timeToBeAnnouncedShare = 0.06;
/** How far ahead the schedule is published, in weeks. */
const publishedWeeksAhead = 26;
/** Events per page of the upcoming-events call. */
export const upcomingPageSize = 20;

export type Catalogue = {
  artists: ArtistRow[];
  tracksByArtist: Map<number, TrackRow[]>;
  playlistsByArtist: Map<number, PlaylistRow[]>;
  venues: VenueRow[];
};

export type ScheduledEvent = {
  id: string;
  week: number;
  slot: number;
  artist: ArtistRow;
  venue: VenueRow;
  name: string;
  /** ISO instants; absent for a show announced without a time. */
  startTime: string | undefined;
  endTime: string | undefined;
  featured: boolean;
};

export function weekOf(ms: number): number {
  return Math.floor((ms - firstMonday) / (7 * dayMs));
}

/** Event ids: the week (4 digits), the slot (1 digit) and the artist id. */
export function eventIdOf(week: number, slot: number, artistId: number): string {
  return `${String(week).padStart(4, "0")}${slot}${artistId}`;
}

export function parseEventId(id: string): { week: number; slot: number; artistId: number } | undefined {
  const match = /^(\d{4})([0-9])(\d{1,12})$/.exec(id);
  if (!match) return undefined;
  const slot = Number(match[2]);
  if (slot >= slotsPerWeek) return undefined;
  return { week: Number(match[1]), slot, artistId: Number(match[3]) };
}

/** A venue drawn with weight √population, so big cities host more shows. */
function venueOf(venues: readonly VenueRow[], seed: string): VenueRow | undefined {
  const weights = venues.map((v) => Math.sqrt(v.population));
  const total = weights.reduce((s, w) => s + w, 0);
  let target = unitHash(seed) * total;
  for (let i = 0; i < venues.length; i++) {
    target -= weights[i] ?? 0;
    if (target < 0) return venues[i];
  }
  return venues.at(-1);
}

/** The artist of the week's featured event (one a week, when that artist plays slot 0). */
function featuredArtistOf(artists: readonly ArtistRow[], week: number): number | undefined {
  return artists[hash32(`featured:${week}`) % Math.max(1, artists.length)]?.id;
}

/** The show of an artist in a week's slot, or undefined when there is none. */
export function scheduledEvent(
  catalogue: Catalogue,
  artist: ArtistRow,
  week: number,
  slot: number,
): ScheduledEvent | undefined {
  const seed = `event:${artist.id}:${week}:${slot}`;
  if (unitHash(seed) >= showShare) return undefined;
  const venue = venueOf(catalogue.venues, `${seed}:venue`);
  if (!venue) return undefined;
  const monday = new Date(firstMonday + week * 7 * dayMs).toISOString().slice(0, 10);
  const date = addDays(monday, hash32(`${seed}:day`) % 7);
  const announced = unitHash(`${seed}:tba`) >= timeToBeAnnouncedShare;
  const hour = 18 + (hash32(`${seed}:hour`) % 4);
  const minute = hash32(`${seed}:minute`) % 2 === 0 ? 0 : 30;
  const start = zonedInstant(date, hour, minute, venue.timezone);
  const hours = 2 + (hash32(`${seed}:length`) % 5) / 2;
  return {
    id: eventIdOf(week, slot, artist.id),
    week,
    slot,
    artist,
    venue,
    name: `${artist.name} live in ${venue.city}`,
    startTime: announced ? new Date(start).toISOString() : undefined,
    endTime: announced ? new Date(start + hours * 3_600_000).toISOString() : undefined,
    featured: slot === 0 && featuredArtistOf(catalogue.artists, week) === artist.id,
  };
}

export function eventById(catalogue: Catalogue, id: string): ScheduledEvent | undefined {
  const parsed = parseEventId(id);
  if (!parsed) return undefined;
  const artist = catalogue.artists.find((a) => a.id === parsed.artistId);
  if (!artist) return undefined;
  const event = scheduledEvent(catalogue, artist, parsed.week, parsed.slot);
  return event?.id === id ? event : undefined;
}

export type UpcomingQuery = {
  /** An artist's id or adam id. */
  artistId: string | undefined;
  countryCode: string | undefined;
  /** South, west, north, east. */
  boundingBox: [number, number, number, number] | undefined;
  /** The point events are sorted from (a geoHash's centre); nearest first. */
  near: LatLng | undefined;
  from: string | undefined;
  to: string | undefined;
};

/**
 * Spec 002 §5 "Upcoming-events filter: only events without a start or with a start in the
 * future", over the published weeks, narrowed by the query: soonest first, or nearest first when
 * the query names a point (shows without a time last).
 */
export function upcomingEvents(catalogue: Catalogue, query: UpcomingQuery, now: number): ScheduledEvent[] {
  const artists = query.artistId
    ? catalogue.artists.filter((a) => String(a.id) === query.artistId || a.adamid === query.artistId)
    : catalogue.artists;
  const thisWeek = weekOf(now);
  const events: ScheduledEvent[] = [];
  for (let week = thisWeek; week <= thisWeek + publishedWeeksAhead; week++) {
    for (const artist of artists) {
      for (let slot = 0; slot < slotsPerWeek; slot++) {
        const event = scheduledEvent(catalogue, artist, week, slot);
        if (!event) continue;
        const time = { startTime: event.startTime, endTime: event.endTime, timezone: event.venue.timezone };
        if (!isUpcoming(time, now)) continue;
        if (query.countryCode && event.venue.country !== query.countryCode) continue;
        if (query.boundingBox && !isInBox(event.venue, query.boundingBox)) continue;
        if ((query.from || query.to) && !isInDateRange(time, { from: query.from, to: query.to })) continue;
        events.push(event);
      }
    }
  }
  const startOf = (e: ScheduledEvent) => (e.startTime ? Date.parse(e.startTime) : Number.POSITIVE_INFINITY);
  const near = query.near;
  return events.sort((a, b) => {
    if (near) {
      const d = distanceMiles(near, a.venue) - distanceMiles(near, b.venue);
      if (d !== 0) return d;
    }
    return startOf(a) - startOf(b) || (a.id < b.id ? -1 : 1);
  });
}

function isInBox(point: LatLng, [south, west, north, east]: [number, number, number, number]): boolean {
  const inLng =
    west <= east ? point.lng >= west && point.lng <= east : point.lng >= west || point.lng <= east;
  return point.lat >= south && point.lat <= north && inLng;
}

type Resource = {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { id: string; type: string }[] }>;
};

/** The JSON:API-style resources of some events, keyed by type then id (spec 002 §3, §7). */
export function eventResources(
  catalogue: Catalogue,
  events: readonly ScheduledEvent[],
  options: { now: number; lang: string; detail: boolean },
): Record<string, Record<string, Resource>> {
  const resources: Record<string, Record<string, Resource>> = {
    "shazam-events": {},
    venues: {},
    artists: {},
    "photo-albums": {},
    setlists: {},
    "watch-faces": {},
    "featured-playlists": {},
    playlists: {},
    wallpapers: {},
  };
  const add = (resource: Resource) => {
    const table = resources[resource.type] ?? {};
    table[resource.id] = resource;
    resources[resource.type] = table;
    return { id: resource.id, type: resource.type };
  };
  for (const event of events) {
    const relationships: Record<string, { data: { id: string; type: string }[] }> = {};
    relationships.artists = { data: [add(artistResource(event.artist))] };
    relationships.venues = { data: [add(venueResource(event.venue))] };
    if (options.detail) {
      const tracks = catalogue.tracksByArtist.get(event.artist.id) ?? [];
      const ended = event.endTime !== undefined && Date.parse(event.endTime) <= options.now;
      if (ended) relationships["photo-albums"] = { data: [add(photoAlbum(event))] };
      if (tracks.length > 0) relationships.setlists = { data: [add(setlist(event, tracks))] };
      const playlists = catalogue.playlistsByArtist.get(event.artist.id) ?? [];
      if (playlists.length > 0)
        relationships.playlists = { data: playlists.map((p) => add(playlistResource(p))) };
    }
    add({
      id: event.id,
      type: "shazam-events",
      attributes: {
        name: event.name,
        appleMusicCuratedPageUrl: "",
        provider: {
          attribution: {
            name: "Tunewave demo listings",
            // The client puts the size in (spec 002 §3: "size placeholder replaced with 0x50").
            logo: eventMedia.attribution("{w}x{h}"),
          },
        },
        time: { startTime: event.startTime, endTime: event.endTime, timezone: event.venue.timezone },
        ...(event.featured
          ? {
              featuredEvent: {
                background: { url: eventMedia.background(1440).replace("1440x1440", "{w}x{h}") },
                logo: { url: eventMedia.logo(600).replace("600", "{w}") },
              },
            }
          : {}),
      },
      relationships,
    });
  }
  return resources;
}

function artistResource(artist: ArtistRow): Resource {
  return {
    id: String(artist.id),
    type: "artists",
    attributes: {
      name: artist.name,
      adamid: artist.adamid,
      alias: artist.alias,
      artwork: { url: artworkTemplate(artist.art_id), bgColor: artist.bkgcolor.replace("#", "") },
    },
  };
}

function venueResource(venue: VenueRow): Resource {
  return {
    id: String(venue.id),
    type: "venues",
    attributes: {
      name: venue.name,
      geo: { lat: venue.lat, lng: venue.lng },
      timezone: venue.timezone,
      address: { structuredAddress: { city: venue.city, country: venue.country } },
    },
  };
}

function photoAlbum(event: ScheduledEvent): Resource {
  const count = 4 + (hash32(`${event.id}:photos`) % 3);
  const first = hash32(`${event.id}:first-photo`) % eventPhotoCount;
  return {
    id: `album-${event.id}`,
    type: "photo-albums",
    attributes: {
      name: event.name,
      photos: Array.from({ length: count }, (_, i) => ({
        id: `${event.id}-${i}`,
        url: eventMedia.photo((first + i) % eventPhotoCount, 1500, "jpg").replace("1500x1500", "{w}x{h}"),
      })),
    },
  };
}

function setlist(event: ScheduledEvent, tracks: readonly TrackRow[]): Resource {
  const length = Math.min(tracks.length, 6 + (hash32(`${event.id}:setlist`) % 5));
  const offset = hash32(`${event.id}:opener`) % tracks.length;
  const entries = Array.from({ length }, (_, i) => tracks[(offset + i) % tracks.length]).flatMap((t) =>
    t ? [{ adamId: t.adamid, key: String(t.key), title: t.title, alias: t.alias }] : [],
  );
  return { id: `setlist-${event.id}`, type: "setlists", attributes: { entries } };
}

function playlistResource(playlist: PlaylistRow): Resource {
  return {
    id: playlist.id,
    type: "playlists",
    attributes: {
      name: playlist.name,
      curatorName: playlist.curator,
      artwork: { url: artworkTemplate(playlist.art_id), bgColor: playlist.bkgcolor.replace("#", "") },
    },
  };
}
