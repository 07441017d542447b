import { matchRoutes } from "@remix-run/router";
import { describe, expect, test } from "vitest";
import {
  accountServicePath,
  albumPath,
  amapiLinkPath,
  artistEventSummaryServicePath,
  artistPagePath,
  artistPath,
  artistServicePath,
  catalogArtistPath,
  catalogArtistViewPath,
  catalogPlaylistPath,
  catalogPlaylistTracksPath,
  catalogSearchPath,
  catalogSongCreditsPath,
  catalogueListingServicePath,
  chartPath,
  customAlbumPath,
  customAlbumTracksPath,
  customPlaylistsByAlbumPath,
  customPlaylistTracksPath,
  eventPath,
  eventQrServicePath,
  eventServicePath,
  eventsServicePath,
  featureConfigServicePath,
  isEventId,
  isNumericId,
  metricsBeaconPath,
  parseArtistPath,
  parseArtistRoute,
  parseTrackPath,
  playlistPath,
  radioChartServicePath,
  radioSpinsPath,
  relatedTracksServicePath,
  searchServiceCallPath,
  servicesCallPath,
  servicesPathOf,
  servicesRootPathOf,
  storefrontOf,
  syncedLyricsServicePath,
  tagCountListServicePath,
  tagCountServicePath,
  trackKeyOf,
  trackPath,
  trackServicePath,
  videoServicePath,
  withQuery,
} from "#rules/addresses.ts";
import { parsePath } from "#rules/path.ts";

// rules/addresses.ts (decision 058): every builder encodes each segment once, and what it builds
// reads back as it was given, through the site's own path reader (rules/path.ts) and the router
// Remix matches routes with.

/** Aliases a catalogue may hold, each with the one encoding of it a path carries. */
const aliases: [alias: string, encoded: string][] = [
  ["lupus-mechanicus", "lupus-mechanicus"],
  ["a space", "a%20space"],
  ["çà et là", "%C3%A7%C3%A0%20et%20l%C3%A0"],
  ["東京", "%E6%9D%B1%E4%BA%AC"],
  ["AC/DC", "AC%2FDC"],
  ["100%", "100%25"],
  ["why?", "why%3F"],
  ["#1 hit", "%231%20hit"],
  ["a%20b", "a%2520b"],
  ["rock'n'roll (live)!", "rock'n'roll%20(live)!"],
];

/** The route patterns of app/routes/ for the pages built here. */
const routes = [
  { id: "track", path: "/track/:key/:alias" },
  { id: "track-key", path: "/track/:key" },
  { id: "artist", path: "/artist/:artistIdOrName/:adamIdOrAlias" },
  { id: "album", path: "/album/:id/:alias?" },
  { id: "playlist", path: "/playlist/:id" },
  { id: "event", path: "/event/:eventId" },
  { id: "radio", path: "/radio-spins/:genre" },
  { id: "chart", path: "/:type/:country/:cityOrGenre?/:include?" },
];

function routeOf(path: string) {
  const [match] = matchRoutes(routes, path) ?? [];
  return match ? { id: match.route.id, params: match.params } : undefined;
}

describe("page paths: each alias encoded once, read back as it was", () => {
  test.each(aliases)("track %j", (alias, encoded) => {
    const path = trackPath("455974326", alias);
    expect(path).toBe(`/track/455974326/${encoded}`);
    expect(parsePath(path)).toMatchObject({ pageType: "track", segments: ["track", "455974326", alias] });
    expect(routeOf(path)).toEqual({ id: "track", params: { key: "455974326", alias } });
    expect(parseTrackPath(path)).toEqual({ key: "455974326", alias });
  });

  test.each(aliases)("artist %j, both forms", (alias, encoded) => {
    const artist = { shazamId: "698522010", adamid: "568583713", alias };
    const byAdamId = artistPath(artist, true);
    const byArtistId = artistPath(artist, false);
    expect(byAdamId).toBe(`/artist/${encoded}/568583713`);
    expect(byArtistId).toBe(`/artist/698522010/${encoded}`);
    for (const [path, first, second] of [
      [byAdamId, alias, "568583713"],
      [byArtistId, "698522010", alias],
    ] as const) {
      expect(parsePath(path)).toMatchObject({ pageType: "artist", segments: ["artist", first, second] });
      expect(routeOf(path)).toEqual({
        id: "artist",
        params: { artistIdOrName: first, adamIdOrAlias: second },
      });
      expect(parseArtistPath(path)).toEqual({ artistIdOrName: first, adamIdOrAlias: second });
    }
    // What the route reads from each form: the adam id while the switch is on, the artist id always.
    expect(parseArtistRoute(alias, "568583713", true)).toEqual({ by: "adamId", id: "568583713" });
    expect(parseArtistRoute("698522010", alias, false)).toEqual({ by: "artistId", id: "698522010" });
  });

  test.each(aliases)("album %j", (alias, encoded) => {
    const path = albumPath("1441164426", alias);
    expect(path).toBe(`/album/1441164426/${encoded}`);
    expect(routeOf(path)).toEqual({ id: "album", params: { id: "1441164426", alias } });
  });

  test("the track key alone, /artist/-/{id}, a playlist, an event, a radio genre", () => {
    expect(trackPath("455974326")).toBe("/track/455974326");
    expect(routeOf(trackPath("455974326"))).toEqual({ id: "track-key", params: { key: "455974326" } });
    expect(parseTrackPath("/track/455974326")).toEqual({ key: "455974326", alias: undefined });
    expect(artistPagePath("-", "698522010")).toBe("/artist/-/698522010");
    expect(parseArtistRoute("-", "698522010", false)).toEqual({ by: "artistId", id: "698522010" });
    expect(playlistPath("pl.u-abc_DEF")).toBe("/playlist/pl.u-abc_DEF");
    expect(routeOf(playlistPath("pl.a/b"))).toEqual({ id: "playlist", params: { id: "pl.a/b" } });
    expect(eventPath("000120698522010")).toBe("/event/000120698522010");
    expect(routeOf(eventPath("000120698522010"))).toEqual({
      id: "event",
      params: { eventId: "000120698522010" },
    });
    expect(radioSpinsPath("r&b soul")).toBe("/radio-spins/r%26b%20soul");
    expect(routeOf(radioSpinsPath("r&b soul"))).toEqual({ id: "radio", params: { genre: "r&b soul" } });
  });

  test.each<[Parameters<typeof chartPath>, string]>([
    [["top-200", "world"], "/top-200/world"],
    [["discovery", "united-kingdom"], "/discovery/united-kingdom"],
    [["top-50", "france", "saint-étienne"], "/top-50/france/saint-%C3%A9tienne"],
    [["genre", "world", "hip-hop/rap", "artists"], "/genre/world/hip-hop%2Frap/artists"],
  ])("chart %j is %s", (args, path) => {
    expect(chartPath(...args)).toBe(path);
    const [type, country, cityOrGenre, include] = args;
    expect(parsePath(path)).toMatchObject({ pageType: "chartsview", chartType: type });
    expect(routeOf(path)?.params).toEqual({
      type,
      country,
      cityOrGenre,
      include,
    });
  });

  test.each([
    ["/track/1/a b", "a raw space"],
    ["/track/1/a?b", "a query"],
    ["/track/1/a/b", "three segments"],
    ["/track/abc/alias", "a key of letters"],
    ["/track/1234567890123456/alias", "16 digits"],
    ["/track/1/%E0%A4%A", "a broken escape"],
    ["/artist/1/x", "an artist"],
  ])("%s is no track path (%s)", (path) => {
    expect(parseTrackPath(path)).toBeUndefined();
  });

  test.each(["/artist/a", "/artist/a/b/c", "/artist/a b/1", "/track/1/a", "/artist/%/1"])(
    "%s is no artist path",
    (path) => {
      expect(parseArtistPath(path)).toBeUndefined();
    },
  );
});

describe("keys, ids and storefronts", () => {
  test.each<[string | undefined, string | undefined]>([
    ["455974326", "455974326"],
    ["455974326-alias", "455974326"],
    ["0012", "0012"],
    ["123456789012345", "123456789012345"],
    // Spec 001 §5 "leading digits": the whole run, never its first 15 digits (another track's key).
    ["1234567890123456", undefined],
    ["12345678901234567890-alias", undefined],
    ["abc", undefined],
    ["-1", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("the track key of %j is %j", (segment, key) => {
    expect(trackKeyOf(segment)).toBe(key);
  });

  test.each([
    ["1", true],
    ["123456789012345", true],
    ["1234567890123456", false],
    ["12a", false],
    ["", false],
  ])("%j is a numeric id: %s", (segment, expected) => {
    expect(isNumericId(segment)).toBe(expected);
  });

  test.each([
    ["000120698522010", true],
    ["12345", false],
    ["123456789012345678", false],
    ["0001x", false],
  ])("%j is an event id: %s", (segment, expected) => {
    expect(isEventId(segment)).toBe(expected);
  });

  test.each([
    ["GB", "GB"],
    ["de", "DE"],
    ["us", "US"],
    ["WORLD", "GB"],
    ["GLOBAL", "GB"],
    ["", "GB"],
    ["G", "GB"],
  ])("the storefront of %j is %s", (country, storefront) => {
    expect(storefrontOf(country)).toBe(storefront);
  });
});

describe("services calls", () => {
  test.each<[string, string]>([
    [trackServicePath("en", "GB", "455974326"), "/services/track/v1/en/GB/web/455974326"],
    [
      trackServicePath("pt-br", "BR", 1, {
        platform: "iphone",
        query: { itsct: "charts", trackLength: 1000 },
      }),
      "/services/track/v1/pt-br/BR/iphone/1?itsct=charts&trackLength=1000",
    ],
    [trackServicePath("en", "GB", "1", { query: { itsct: undefined } }), "/services/track/v1/en/GB/web/1"],
    [trackServicePath("en", "GB", "1/../x"), "/services/track/v1/en/GB/web/1%2F..%2Fx"],
    [relatedTracksServicePath("en", "GB", "web", 7), "/services/track/v1/en/GB/web/7/related"],
    [tagCountServicePath("7"), "/services/count/v2/web/track/7"],
    [tagCountListServicePath(["1", "22"]), "/services/count/v2/web/tracks?id=1&id=22"],
    [syncedLyricsServicePath("gb", "1500"), "/services/lyrics/v1/gb/songs/1500/synced"],
    [artistServicePath("de", "DE", "42"), "/services/artist/v1/de/DE/web/42"],
    [
      catalogArtistPath("GB", "9", {
        extend: ["artistBio", "origin"],
        views: ["top-songs", "full-albums"],
        limit: 10,
      }),
      "/services/amapi/v1/catalog/gb/artists/9?extend=artistBio,origin&views=top-songs,full-albums&limit=10",
    ],
    [catalogArtistPath("gb", "9"), "/services/amapi/v1/catalog/gb/artists/9"],
    [catalogArtistViewPath("gb", "9", "top-songs"), "/services/amapi/v1/catalog/gb/artists/9/view/top-songs"],
    [catalogSongCreditsPath("GB", "5", "en-GB"), "/services/amapi/v1/catalog/gb/songs/5/credits?l=en-GB"],
    [catalogPlaylistPath("US", "pl.a b"), "/services/amapi/v1/catalog/us/playlists/pl.a%20b"],
    [
      catalogPlaylistTracksPath("GB", "ip-world-chart", { limit: 200, relate: ["artists"] }),
      "/services/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=200&relate[songs]=artists",
    ],
    [
      catalogPlaylistTracksPath("fr", "ip-fr", {
        limit: 50,
        offset: 200,
        relate: ["artists", "music-videos"],
        include: ["artists"],
      }),
      "/services/amapi/v1/catalog/fr/playlists/ip-fr/tracks?limit=50&offset=200&relate[songs]=artists,music-videos&include=artists",
    ],
    [
      catalogSearchPath("DE", { types: ["songs", "artists"], term: "a&b ç", limit: 3, offset: 6 }),
      "/services/amapi/v1/catalog/de/search?types=songs,artists&term=a%26b%20%C3%A7&limit=3&offset=6",
    ],
    [amapiLinkPath("/v1/catalog/gb/search?offset=3"), "/services/amapi/v1/catalog/gb/search?offset=3"],
    [customAlbumPath("GB", "12"), "/services/amapi/custom/GB/albums/12"],
    [customAlbumTracksPath("en", "GB", "12"), "/services/amapi/custom/en/GB/album/shazamtracks/12/full"],
    [
      customPlaylistTracksPath("en", "GB", "pl.x"),
      "/services/amapi/custom/en/GB/playlist/shazamtracks/pl.x/full",
    ],
    [customPlaylistsByAlbumPath("en", "GB", "12"), "/services/amapi/custom/en/GB/playlistsbyalbum/12"],
    [
      eventsServicePath("GB", { l: "en", "filter[isFuture]": "true", artistId: undefined, r: "ab12" }),
      "/services/event/v1/GB/shazam-events?l=en&filter%5BisFuture%5D=true&r=ab12",
    ],
    [
      eventServicePath("GB", "000120698522010", { l: "en" }),
      "/services/event/v1/GB/shazam-events/000120698522010?l=en",
    ],
    [
      eventQrServicePath("de", "DE", "000120698522010", 110),
      "/services/qr/event/de/DE/000120698522010/110x110.svg",
    ],
    [artistEventSummaryServicePath("GB", "en", "42"), "/services/musicevents/artistsummary/GB/en/42"],
    [radioChartServicePath("r&b"), "/services/charts/radio/r%26b"],
    [
      searchServiceCallPath("en", "GB", { query: "a b", pageSize: 3, page: 0, limit: 3 }),
      "/services/search/v1/en/GB/web?query=a+b&pageSize=3&page=0&limit=3",
    ],
    [catalogueListingServicePath("tracks", { limit: 1000 }), "/services/catalogue/v1/tracks?limit=1000"],
    [
      catalogueListingServicePath("playlists", { limit: 2, after: "pl.a+b" }),
      "/services/catalogue/v1/playlists?limit=2&after=pl.a%2Bb",
    ],
    [featureConfigServicePath(), "/services/config/features.json"],
    [featureConfigServicePath("-android"), "/services/config/features-android.json"],
    [metricsBeaconPath("web.pageview.home", 12.6, {}), "/services/metrics/web.pageview.home/13"],
    [metricsBeaconPath("web.error", 1, { a: "x y", b: "1" }), "/services/metrics/web.error/1?a=x+y&b=1"],
    [videoServicePath("watch", 7), "/services/video/watch/7"],
    [videoServicePath("embed", 7), "/services/video/embed/7"],
    [accountServicePath(["tags", "t/1", "hide"]), "/services/account/tags/t%2F1/hide"],
    [
      accountServicePath(["privacy", "export", "e1"], { token: "a+b/c" }),
      "/services/account/privacy/export/e1?token=a%2Bb%2Fc",
    ],
    [accountServicePath(["tags"], { token: undefined }), "/services/account/tags"],
    [servicesCallPath(["survey", "answers", "r 1"]), "/services/survey/answers/r%201"],
    [servicesPathOf("/event/v1/GB/shazam-events"), "/services/event/v1/GB/shazam-events"],
  ])("%s", (built, expected) => {
    expect(built).toBe(expected);
  });

  test.each([
    ["/services/search/v1/en/GB/web", "/search/v1/en/GB/web"],
    ["/search/v1/en/GB/web", "/search/v1/en/GB/web"],
    ["/servicesx/a", "/servicesx/a"],
  ])("the services' own path of %s is %s", (path, root) => {
    expect(servicesRootPathOf(path)).toBe(root);
  });

  test("withQuery sets parameters on a path, keeping its own", () => {
    expect(withQuery("/services/track/v1/en/GB/web/1/related", { limit: 10 })).toBe(
      "/services/track/v1/en/GB/web/1/related?limit=10",
    );
    expect(withQuery("/a?x=1&limit=2", { limit: "3", skipped: undefined })).toBe("/a?x=1&limit=3");
  });
});
