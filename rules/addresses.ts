import type { ChartType } from "./path";

/**
 * The spec's addresses, in one place (docs/decisions/058-addresses.md): the page paths of spec 001
 * §2 (and 000 §2, 002 §2) and the services calls of 000 §7, 001 §7 and 002 §7, each built here,
 * and read here where the site reads one. `npm run lint` (scripts/address-templates.mjs) refuses a
 * template literal that builds one of them anywhere else.
 *
 * - A builder takes every value as it is (decoded: an alias "a b/ç", never "a%20b%2F%C3%A7") and
 *   encodes each path segment once, with encodeURIComponent. A value is never passed in encoded.
 * - Page paths have no language prefix (rules/path.ts `localizedPath` adds it) and no query.
 * - A query is form-encoded (URLSearchParams) unless the call's own form is written out below (the
 *   catalogue's comma lists and `relate[songs]`, as the spec and the Apple Music API write them).
 * - A track key: `trackKeyOf`. A storefront: `storefrontOf`.
 */

type Id = string | number;

/** One path segment, encoded once. */
function e(value: Id): string {
  return encodeURIComponent(String(value));
}

/** Query parameters; an undefined value is left out. */
export type QueryParams = Readonly<Record<string, string | number | undefined>>;

/** `path` with `query` set on it (form encoding), a query it already has kept. */
export function withQuery(path: string, query: QueryParams): string {
  const url = new URL(path, "https://address.invalid");
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return `${url.pathname}${url.search}`;
}

/** `?a=1&b=2` of the defined parameters, in their order; "" without one. */
function queryOf(query: QueryParams): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return search === "" ? "" : `?${search}`;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

// Keys, ids and storefronts.

/**
 * The most digits a track key or catalogue id has: 15 digits stay below Number.MAX_SAFE_INTEGER, so
 * a key is the same key as the site's string and as the origin's D1 integer.
 */
const idMaxDigits = 15;

const numericId = new RegExp(`^\\d{1,${idMaxDigits}}$`);

/** A numeric id of the catalogue (track key, artist id, adam id, album id): 1 to 15 digits and nothing else. */
export function isNumericId(segment: string): boolean {
  return numericId.test(segment);
}

/**
 * Spec 001 §5 "Track id must be numeric (leading digits from the path)": the key a path segment
 * names is its whole leading run of digits ("455974326-song" names 455974326). A segment without
 * a leading digit names no track, and nor does a run of more than 15 digits: its first 15 digits
 * are another track's key (decision 058). Undefined when there is no key; callers answer the
 * spec's invalid parameter, 'Track service No id'.
 */
export function trackKeyOf(segment: string | undefined): string | undefined {
  const digits = /^\d+/.exec(segment ?? "")?.[0];
  return digits !== undefined && digits.length <= idMaxDigits ? digits : undefined;
}

/** The storefront asked for a country without one of its own. */
export const defaultStorefront = "GB";

/**
 * The catalogue storefront of a country code (decision 058): a two-letter code, in any case, is its
 * own storefront (written upper case); anything else (the country table's WORLD and GLOBAL) is
 * GB's. The edge hands on only codes of the country table (decision 002), so a two-letter code is
 * one the catalogue knows. The Apple Music API paths below write it lower case, as that API does;
 * the other calls write it as given.
 */
export function storefrontOf(country: string): string {
  return /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : defaultStorefront;
}

// Page paths (spec 001 §2), without language prefix.

/**
 * Spec 001 §2 `/track/{trackKey}/{alias}`, the track page; without an alias `/track/{trackKey}`,
 * which moves to the first (301), the address the native app's trackResult opens (spec 000 §2).
 */
export function trackPath(key: Id, alias?: string): string {
  return alias === undefined ? `/track/${e(key)}` : `/track/${e(key)}/${e(alias)}`;
}

/**
 * The key and alias of a track page's path as `trackPath` builds it (`/track/{key}/{alias}` or
 * `/track/{key}`: a key of digits only, no query), decoded; undefined for any other path.
 */
export function parseTrackPath(path: string): { key: string; alias: string | undefined } | undefined {
  const match = /^\/track\/(\d+)(?:\/([^/?#\s]+))?$/.exec(path);
  const key = match?.[1];
  if (key === undefined || !isNumericId(key)) return undefined;
  const rawAlias = match?.[2];
  if (rawAlias === undefined) return { key, alias: undefined };
  const alias = decoded(rawAlias);
  return alias === undefined ? undefined : { key, alias };
}

/**
 * Spec 001 §2 `/artist/{artistIdOrName}/{adamIdOrAlias}`, either form of the artist page as its
 * segments say: `/artist/{artistId}/{alias}`, `/artist/{alias}/{adamId}`, and `/artist/-/{artistId}`.
 */
export function artistPagePath(artistIdOrName: Id, adamIdOrAlias: Id): string {
  return `/artist/${e(artistIdOrName)}/${e(adamIdOrAlias)}`;
}

/**
 * An artist's canonical path: `/artist/{alias}/{adamId}` while the adam-id switch is on (spec 001
 * §2 "depending on a feature switch"), else `/artist/{artistId}/{alias}`, the form always accepted.
 */
export function artistPath(
  artist: { shazamId: string; adamid: string; alias: string },
  adamIdRoute: boolean,
): string {
  return adamIdRoute
    ? artistPagePath(artist.alias, artist.adamid)
    : artistPagePath(artist.shazamId, artist.alias);
}

/** How an artist path names its artist. */
export type ArtistRoute = { by: "artistId" | "adamId"; id: string };

/**
 * Reads the two segments of an artist path (decoded), spec 001 §2:
 * - `/artist/-/{artistId}` and `/artist/{artistId}/{alias}`: the numeric artist id, always;
 * - `/artist/{alias}/{adamId}`: the catalogue (adam) id with an alias, while the switch is on.
 * Anything else names no artist.
 */
export function parseArtistRoute(
  artistIdOrName: string,
  adamIdOrAlias: string,
  adamIdRoute: boolean,
): ArtistRoute | undefined {
  if (artistIdOrName === "-")
    return isNumericId(adamIdOrAlias) ? { by: "artistId", id: adamIdOrAlias } : undefined;
  if (isNumericId(artistIdOrName)) return { by: "artistId", id: artistIdOrName };
  if (adamIdRoute && isNumericId(adamIdOrAlias)) return { by: "adamId", id: adamIdOrAlias };
  return undefined;
}

/** The two segments of an artist page's path (`/artist/{a}/{b}`, no query), decoded; undefined for any other path. */
export function parseArtistPath(path: string): { artistIdOrName: string; adamIdOrAlias: string } | undefined {
  const match = /^\/artist\/([^/?#\s]+)\/([^/?#\s]+)$/.exec(path);
  const artistIdOrName = decoded(match?.[1] ?? "");
  const adamIdOrAlias = decoded(match?.[2] ?? "");
  return artistIdOrName && adamIdOrAlias ? { artistIdOrName, adamIdOrAlias } : undefined;
}

/** Spec 001 §3 "Catalogue item" (decision 026): `/album/{id}/{alias}`. */
export function albumPath(id: Id, alias: string): string {
  return `/album/${e(id)}/${e(alias)}`;
}

/** `/playlist/{id}`: the catalogue gives playlists no alias (decision 026). */
export function playlistPath(id: string): string {
  return `/playlist/${e(id)}`;
}

/** Spec 002 §2 `/event/{eventId}`: a concert's page. */
export function eventPath(eventId: Id): string {
  return `/event/${e(eventId)}`;
}

/** An event id the events calls know: digits, 6 to 17 of them (origin/events.ts `eventIdOf`). */
export function isEventId(segment: string): boolean {
  return /^\d{6,17}$/.test(segment);
}

/**
 * Spec 001 §2 chart page `{type}/{country-or-world}/{cityOrGenre}[/{include}]`, by the url names
 * of the chart locations.
 */
export function chartPath(
  type: ChartType,
  countryUrlName: string,
  cityOrGenre?: string,
  include?: string,
): string {
  const place = cityOrGenre === undefined ? "" : `/${e(cityOrGenre)}`;
  return `/${e(type)}/${e(countryUrlName)}${place}${include === undefined ? "" : `/${e(include)}`}`;
}

/** Spec 001 §2 "radio spins: one page per genre": `/radio-spins/{genre}`. */
export function radioSpinsPath(genreUrlName: string): string {
  return `/radio-spins/${e(genreUrlName)}`;
}

// The services calls: what the site asks under /services (edge/services, then the upstream, whose
// own root has no /services).

const servicesRoot = "/services";

/** A path of the services' own root (`/event/v1/…`, as an upstream link names it) as the site asks it. */
export function servicesPathOf(rootPath: string): string {
  return `${servicesRoot}${rootPath}`;
}

/** The services' own path of a call asked under /services; a path without the prefix is already one. */
export function servicesRootPathOf(path: string): string {
  return path.startsWith(`${servicesRoot}/`) ? path.slice(servicesRoot.length) : path;
}

/** `/services/{segment}/…`: a call named by its segments, each encoded once. */
export function servicesCallPath(segments: readonly Id[], query: QueryParams = {}): string {
  return `${servicesRoot}/${segments.map(e).join("/")}${queryOf(query)}`;
}

/** Spec 002 §7 the account service, `/services/account/{segments}`: sign-in, tags, privacy, offers. */
export function accountServicePath(segments: readonly Id[], query: QueryParams = {}): string {
  return servicesCallPath(["account", ...segments], query);
}

/** Spec 001 §7 track URL: the web variant, or the native app's (`/iphone/` in place of `/web/`). */
export type TrackPlatform = "web" | "iphone";

/** Spec 001 §7 "Track URL by {trackId}": `/services/track/v1/{lang}/{country}/{platform}/{key}`. */
export function trackServicePath(
  lang: string,
  country: string,
  key: Id,
  options: { platform?: TrackPlatform; query?: QueryParams } = {},
): string {
  const path = `/services/track/v1/${e(lang)}/${e(country)}/${e(options.platform ?? "web")}/${e(key)}`;
  return options.query ? withQuery(path, options.query) : path;
}

/** A track's recommendations (its RELATED section's url): the track URL and `/related`. */
export function relatedTracksServicePath(
  lang: string,
  country: string,
  platform: TrackPlatform,
  key: Id,
): string {
  return `${trackServicePath(lang, country, key, { platform })}/related`;
}

/** Spec 001 §7 tag count for a track: `/services/count/v2/web/track/{key}`. */
export function tagCountServicePath(key: Id): string {
  return `/services/count/v2/web/track/${e(key)}`;
}

/** Spec 001 §7 "a tag count list using repeated id= parameters": `/services/count/v2/web/tracks?id=1&id=2…`. */
export function tagCountListServicePath(keys: readonly Id[]): string {
  return `/services/count/v2/web/tracks?${keys.map((key) => `id=${e(key)}`).join("&")}`;
}

/** Spec 001 §7 synced lyrics of a song by its catalogue (adam) id (the LYRICS section's url). */
export function syncedLyricsServicePath(storefront: string, songAdamId: Id): string {
  return `/services/lyrics/v1/${e(storefront)}/songs/${e(songAdamId)}/synced`;
}

/** Spec 001 §7 "Artist by artistId": `/services/artist/v1/{lang}/{country}/web/{artistId}`. */
export function artistServicePath(lang: string, country: string, artistId: Id): string {
  return `/services/artist/v1/${e(lang)}/${e(country)}/web/${e(artistId)}`;
}

/** `/services/amapi/v1/catalog/{storefront}`: the Apple Music API's catalogue, its storefront lower case. */
function catalogRoot(storefront: string): string {
  return `/services/amapi/v1/catalog/${e(storefront.toLowerCase())}`;
}

/**
 * Spec 001 §7 `/services/amapi/v1/catalog/{country}/artists/{id}` "with extend and views parameters"
 * (and the views' `limit`), the lists comma-separated as the API writes them.
 */
export function catalogArtistPath(
  storefront: string,
  adamId: Id,
  query?: { extend: readonly string[]; views: readonly string[]; limit: number },
): string {
  const path = `${catalogRoot(storefront)}/artists/${e(adamId)}`;
  if (!query) return path;
  return `${path}?extend=${query.extend.map(e).join(",")}&views=${query.views.map(e).join(",")}&limit=${query.limit}`;
}

/** One view of a catalogue artist (`top-songs`: the ARTIST section's top tracks). */
export function catalogArtistViewPath(storefront: string, adamId: Id, view: string): string {
  return `${catalogRoot(storefront)}/artists/${e(adamId)}/view/${e(view)}`;
}

/** Spec 001 §7 `/services/amapi/v1/catalog/{country}/songs/{id}/credits?l={locale}`. */
export function catalogSongCreditsPath(storefront: string, songAdamId: Id, locale: string): string {
  return withQuery(`${catalogRoot(storefront)}/songs/${e(songAdamId)}/credits`, { l: locale });
}

/** A catalogue playlist (a chart list, or a `pl.` playlist). */
export function catalogPlaylistPath(storefront: string, id: string): string {
  return `${catalogRoot(storefront)}/playlists/${e(id)}`;
}

/**
 * Spec 001 §7 "Catalogue playlists URL with list id and page size; query relate[songs]=artists,
 * music-videos, optional include=artists": a page of a list's songs.
 */
export function catalogPlaylistTracksPath(
  storefront: string,
  id: string,
  query: { limit: number; offset?: number; relate: readonly string[]; include?: readonly string[] },
): string {
  const offset = query.offset ? `&offset=${query.offset}` : "";
  const include = query.include ? `&include=${query.include.map(e).join(",")}` : "";
  return `${catalogPlaylistPath(storefront, id)}/tracks?limit=${query.limit}${offset}&relate[songs]=${query.relate.map(e).join(",")}${include}`;
}

/** Spec 000 §7 `/services/amapi/v1/catalog/{country}/search` "with types=songs,artists, term, limit". */
export function catalogSearchPath(
  storefront: string,
  query: { types: readonly string[]; term: string; limit: number; offset?: number },
): string {
  const offset = query.offset ? `&offset=${query.offset}` : "";
  return `${catalogRoot(storefront)}/search?types=${query.types.map(e).join(",")}&term=${e(query.term)}&limit=${query.limit}${offset}`;
}

/** Spec 000 §7 `/services/amapi{nextLink}`: a link of the catalogue's own (`/v1/catalog/…`) asked through the proxy. */
export function amapiLinkPath(link: string): string {
  return servicesPathOf(`/amapi${link}`);
}

/** Spec 001 §7 `/services/amapi/custom/{country}/albums/{id}`. */
export function customAlbumPath(country: string, id: Id): string {
  return `/services/amapi/custom/${e(country)}/albums/${e(id)}`;
}

/** Spec 001 §7 `/services/amapi/custom/{language}/{country}/album/shazamtracks/{id}/full`. */
export function customAlbumTracksPath(lang: string, country: string, id: Id): string {
  return `/services/amapi/custom/${e(lang)}/${e(country)}/album/shazamtracks/${e(id)}/full`;
}

/** Spec 001 §7 `/services/amapi/custom/{language}/{country}/playlist/shazamtracks/{id}/full`. */
export function customPlaylistTracksPath(lang: string, country: string, id: string): string {
  return `/services/amapi/custom/${e(lang)}/${e(country)}/playlist/shazamtracks/${e(id)}/full`;
}

/** Spec 001 §7 `/services/amapi/custom/{language}/{country}/playlistsbyalbum/{id}`. */
export function customPlaylistsByAlbumPath(lang: string, country: string, id: Id): string {
  return `/services/amapi/custom/${e(lang)}/${e(country)}/playlistsbyalbum/${e(id)}`;
}

/** Spec 001 §7 `/services/event/v1/{country}/shazam-events` with its query (`l`, `filter[isFuture]`, …). */
export function eventsServicePath(country: string, query: QueryParams): string {
  return `/services/event/v1/${e(country)}/shazam-events${queryOf(query)}`;
}

/** Spec 001 §7 `/services/event/v1/{country}/shazam-events/{shazamid}`: one event. */
export function eventServicePath(country: string, eventId: Id, query: QueryParams): string {
  return `/services/event/v1/${e(country)}/shazam-events/${e(eventId)}${queryOf(query)}`;
}

/** Spec 001 §7 "QR image /services/qr/event/{language}/{country}/{eventId}/{w}x{h}.svg", square. */
export function eventQrServicePath(lang: string, country: string, eventId: Id, width: number): string {
  return `/services/qr/event/${e(lang)}/${e(country)}/${e(eventId)}/${width}x${width}.svg`;
}

/** Spec 002 §7 the artist event summary: `/services/musicevents/artistsummary/{country}/{lang}/{artistId}`. */
export function artistEventSummaryServicePath(country: string, lang: string, artistId: Id): string {
  return `/services/musicevents/artistsummary/${e(country)}/${e(lang)}/${e(artistId)}`;
}

/** Spec 001 §7 `/services/charts/locations`: countries and cities, with their genre lists. */
export const chartLocationsServicePath = "/services/charts/locations";

/** A genre's radio airplay chart (rules/radio.ts): `/services/charts/radio/{genre}`. */
export function radioChartServicePath(genre: string): string {
  return `/services/charts/radio/${e(genre)}`;
}

/** Where the search service lives on its own root (`/search/v1`); the site asks it under /services. */
export const searchServiceRoot = "/search/v1";

/** Spec 002 §7 "GET search": `/services/search/v1/{lang}/{country}/web` with its query. */
export function searchServiceCallPath(lang: string, storefront: string, query: QueryParams): string {
  return `${servicesPathOf(searchServiceRoot)}/${e(lang)}/${e(storefront)}/web${queryOf(query)}`;
}

/** The catalogue listings the sitemaps read (rules/schemas/catalogue.ts). */
export type CatalogueListing = "tracks" | "artists" | "albums" | "playlists";

/** `/services/catalogue/v1/{listing}?limit={n}[&after={id}]`: a page of a listing. */
export function catalogueListingServicePath(
  listing: CatalogueListing,
  query: { limit: number; after?: Id },
): string {
  const after = query.after === undefined ? "" : `&after=${e(query.after)}`;
  return `/services/catalogue/v1/${e(listing)}?limit=${query.limit}${after}`;
}

/** Spec 000 §7 `/services/config/features{app}.json` (`{app}` is empty for the website). */
export function featureConfigServicePath(app = ""): string {
  return `/services/config/features${e(app)}.json`;
}

/** The statistics image beacon's root (spec 000 §7). */
const metricsServicePath = "/services/metrics";

/** Spec 000 §7 image beacon `/services/metrics/{route}/{time}?{params}`. */
export function metricsBeaconPath(route: string, time: number, query: QueryParams): string {
  return `${metricsServicePath}/${e(route)}/${Math.round(time)}${queryOf(query)}`;
}

/** Where the embedded video site lives on the services' root (spec 002 §2, §4 "Video"). */
export const videoServiceRoot = "/video";

/** A track's video page (`watch`) or its embeddable player (`embed`): the VIDEO section's urls. */
export function videoServicePath(kind: "watch" | "embed", key: Id): string {
  return `${servicesPathOf(videoServiceRoot)}/${kind}/${e(key)}`;
}
