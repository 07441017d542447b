import "#tests/all-languages.ts";
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { loadTrackPage, musicRecordingJsonLd } from "#app/track/track.server.ts";
import { trackKeyOf } from "#app/track/track-calls.server.ts";
import {
  clockDuration,
  headingBackgroundOf,
  isoDuration,
  orderedStores,
  releasedText,
  shareLinks,
  storePlatformOf,
} from "#app/track/track-payload.server.ts";
import { resolveRequest } from "#edge/request-context.ts";
import { contrastRatio, lyricExcerpt, lyricSampleLength } from "#rules/content-rules.ts";
import { SiteError } from "#rules/errors.ts";
import { type StoreName, storeNames, type Track, trackSchema } from "#rules/schemas/track.ts";

const userAgents = {
  android:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  ipad: "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  windows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
};

/** A track payload as the origin sends it (rules/schemas/track.ts), parsed like the proxy would. */
function aTrack(overrides: Partial<v.InferInput<typeof trackSchema>> = {}): Track {
  const store = (name: StoreName) => ({
    previewurl: "/media/previews/455974326.ogg",
    explicit: false,
    actions: [
      { name: `hub:${name}:searchdeeplink`, type: "uri", uri: `https://${name}.example/search?q=Journey` },
    ],
  });
  return v.parse(trackSchema, {
    key: "455974326",
    title: "Journey's End",
    subtitle: "Mattias Westlund",
    heading: { title: "Journey's End", subtitle: "Mattias Westlund" },
    type: "MUSIC",
    images: {
      default: "/media/art/track-455974326/375x375.jpg",
      coverart: "/media/art/track-455974326/300x300.jpg",
      background: "/media/art/artist-1/800x800.jpg",
      joecolor: "b:3034a2p:ffffffs:d6d6d6t:ffffffq:d6d6d6",
      template: "/media/art/track-455974326/{w}x{h}.jpg",
    },
    url: "/track/455974326/journeys-end",
    alias: "journeys-end",
    layout: "5",
    sections: [
      {
        type: "SONG",
        tabname: "Song",
        metadata: [{ title: "Album", text: "The Battle for Wesnoth OST" }],
        metapages: [],
      },
      {
        type: "ARTIST",
        tabname: "Artist",
        id: "1",
        adamid: "329510217",
        name: "Mattias Westlund",
        avatar: "/media/art/artist-1/400x400.jpg",
        url: "/artist/mattias-westlund/329510217",
        toptracks: { url: "/services/amapi/v1/catalog/gb/artists/329510217/view/top-songs" },
      },
      {
        type: "LYRICS",
        tabname: "Lyrics",
        text: ["The road runs out where the river bends", "Lanterns lit at the journey's end"],
        footer: "Demo lyrics written for Tunewave.",
        demo: true,
        beacondata: { lyricsid: "l1", providername: "Tunewave demo lyrics", commontrackid: "455974326" },
        url: "/services/lyrics/v1/gb/songs/1490186607/synced",
      },
      { type: "RELATED", tabname: "Related", url: "/services/track/v1/en/GB/web/455974326/related" },
    ],
    hub: { type: "APPLEMUSIC", actions: [], options: [], providers: [], explicit: false },
    stores: Object.fromEntries(storeNames.map((name) => [name, store(name)])),
    share: {
      href: "/track/455974326/journeys-end",
      subject: "Journey's End - Mattias Westlund",
      text: "I used Tunewave to discover Journey's End by Mattias Westlund.",
      twitter: "I used @Tunewave to discover Journey's End by Mattias Westlund.",
    },
    properties: {
      numberOfShazams: 24088,
      colors: { background: "#3034a2", accessible: "#3034a2", text: "#ffffff", secondaryText: "#d6d6d6" },
      bkgcolor: "3034a2",
      bkglight: false,
      bkgblack: false,
      whiteContrast: 9.82,
    },
    artists: [{ id: "1", adamid: "329510217" }],
    albumadamid: "2",
    trackadamid: "1490186607",
    isNewRelease: false,
    dateInfo: { releaseDate: "2009-01-01", precision: "year", addedDate: "2023-04-20" },
    genres: { primary: "Romantic Classical" },
    durationMs: 224_009,
    licence: { name: "GPL-2+", copyright: "2003 - 2009 by David White" },
    source: {
      package: "wesnoth-1.16",
      binaryPackage: "wesnoth-1.16-music",
      version: "1:1.16.9-1",
      file: "x.ogg",
    },
    ...overrides,
  });
}

function aRelated(key: string, preview = true) {
  return {
    key,
    title: `Song ${key}`,
    subtitle: "Someone",
    alias: `song-${key}`,
    url: `/track/${key}/song-${key}`,
    images: { default: "/d.jpg", coverart: "/c.jpg", template: `/media/art/track-${key}/{w}x{h}.jpg` },
    artists: [{ id: "1", adamid: "2" }],
    trackadamid: "3",
    ...(preview ? { previewurl: `/media/previews/${key}.ogg` } : {}),
    properties: { bkgcolor: "112233", bkglight: false },
  };
}

const syncedAnswer = {
  id: "l1",
  adamid: "1490186607",
  trackKey: "455974326",
  providername: "Tunewave demo lyrics",
  footer: "Demo lyrics written for Tunewave.",
  demo: true,
  syncedtext: [
    { offset: 23_005, text: "The road runs out where the river bends" },
    { offset: 43_295, text: "Lanterns lit at the journey's end" },
  ],
};

/**
 * The services proxy as loaders see it, answering from a table of paths (query included); any
 * other path is the upstream's 404. Records what was asked.
 */
function servicesAnswering(answers: Record<string, unknown>) {
  const asked: string[] = [];
  const services: AppLoadContext["services"] = {
    async handle() {
      throw new Error("not used by loaders");
    },
    async getJson(path, schema) {
      asked.push(path);
      if (!(path in answers)) throw new SiteError("serviceerror", `404 from ${path}`, { status: 404 });
      const parsed = v.safeParse(schema, answers[path]);
      if (!parsed.success) throw new SiteError("baddata", `Unexpected data: ${v.summarize(parsed.issues)}`);
      return parsed.output;
    },
  };
  return { services, asked };
}

function aSong(shazamKey: string) {
  return {
    id: `9${shazamKey}`,
    type: "songs",
    href: `/v1/catalog/gb/songs/9${shazamKey}`,
    attributes: {
      name: `Top ${shazamKey}`,
      artistName: "Mattias Westlund",
      albumName: "An album",
      artwork: {
        url: `/media/art/track-${shazamKey}/{w}x{h}.jpg`,
        width: 800,
        height: 800,
        bgColor: "363ea6",
      },
      url: "https://music.apple.com/gb/search?term=x",
      previews: [{ url: `/media/previews/${shazamKey}.ogg` }],
      releaseDate: "2023-04-20",
      durationInMillis: 200_000,
      genreNames: ["Soundtrack"],
      playParams: { id: `9${shazamKey}`, kind: "song" },
      hasLyrics: false,
      shazamKey,
      alias: `top-${shazamKey}`,
    },
  };
}

const trackPath = "/services/track/v1/en/GB/web/455974326";
const topSongsPath = "/services/amapi/v1/catalog/gb/artists/329510217/view/top-songs?limit=6";

function catalogue(track: unknown = aTrack(), extra: Record<string, unknown> = {}) {
  return {
    [trackPath]: track,
    [`${trackPath}/related?limit=10`]: { tracks: [aRelated("11"), aRelated("12", false), aRelated("13")] },
    "/services/count/v2/web/track/455974326": { id: "455974326", total: 31337, demo: true },
    "/services/count/v2/web/tracks?id=11&id=12&id=13": [
      { id: "11", total: 1200, demo: true },
      { id: "13", total: 4, demo: false },
    ],
    "/services/lyrics/v1/gb/songs/1490186607/synced": syncedAnswer,
    [topSongsPath]: {
      href: "/v1/catalog/gb/artists/329510217/view/top-songs",
      attributes: { title: "Top Songs" },
      data: ["21", "455974326", "22", "23", "24", "25", "26"].map(aSong),
    },
    ...extra,
  };
}

const now = new Date(Date.UTC(2025, 5, 1, 12));

function load(
  answers: Record<string, unknown>,
  query = "",
  userAgent: string | null = userAgents.windows,
  syncedLyrics = true,
) {
  const edge = resolveRequest(
    new Request(`https://tunewave.test/track/455974326/journeys-end?co=GB${query}`),
    undefined,
  );
  const { services, asked } = servicesAnswering(answers);
  const page = loadTrackPage(
    { edge, services },
    {
      keySegment: "455974326",
      search: new URLSearchParams(query),
      userAgent,
      origin: "https://tunewave.test",
      now,
      syncedLyrics,
    },
  );
  return { page, asked };
}

describe("spec 001 §5: the track id is the leading digits of the path", () => {
  test.each([
    ["455974326", "455974326"],
    ["455974326abc", "455974326"],
    ["1", "1"],
    ["123456789012345", "123456789012345"],
  ])("%s → %s", (segment, key) => {
    expect(trackKeyOf(segment)).toBe(key);
  });

  test.each([["abc"], [""], [undefined], ["-1"], ["1234567890123456"]])(
    "%s → invalid parameter",
    (segment) => {
      expect(() => trackKeyOf(segment)).toThrowError(
        expect.objectContaining({ type: "invalidparam", message: "Track service No id" }),
      );
    },
  );
});

describe("spec 001 §3: stores in the platform's priority", () => {
  test.each([
    ["android", userAgents.android, undefined, "android"],
    ["iphone", userAgents.iphone, undefined, "ios"],
    ["ipad", userAgents.ipad, undefined, "ios"],
    ["windows", userAgents.windows, undefined, "web"],
    ["mac", userAgents.mac, undefined, "web"],
    ["no user agent", null, undefined, "web"],
    ["an emulated android device", userAgents.windows, "android", "android"],
    ["an emulated ios device", userAgents.android, "ios", "ios"],
    ["an emulated screen size is no platform", userAgents.android, "desktop", "android"],
  ])("%s", (_name, userAgent, device, platform) => {
    expect(storePlatformOf(userAgent, device)).toBe(platform);
  });

  test.each([
    ["android", ["google", "spotify", "amazon", "apple", "itunes", "xboxmusic"]],
    ["ios", ["apple", "spotify", "itunes", "google", "amazon", "xboxmusic"]],
    ["web", ["spotify", "apple", "amazon", "itunes", "google", "xboxmusic"]],
  ] as const)("%s", (platform, order) => {
    expect(orderedStores(aTrack().stores, platform).map((store) => store.name)).toEqual(order);
  });

  test("stores without a web link are left out", () => {
    const stores = aTrack().stores;
    const unsafe = {
      ...stores,
      spotify: stores.spotify && {
        ...stores.spotify,
        actions: [{ type: "uri", uri: "javascript:alert(1)" }],
      },
      amazon: undefined,
      apple: stores.apple && {
        ...stores.apple,
        actions: [{ type: "uri", uri: "music://music.apple.com/x" }],
      },
    };
    expect(orderedStores(unsafe, "web").map((store) => store.name)).toEqual([
      "itunes",
      "google",
      "xboxmusic",
    ]);
  });
});

describe("page facts", () => {
  test.each([
    [224_009, "PT3M44S", "3:44"],
    [59_400, "PT59S", "0:59"],
    [3_725_000, "PT1H2M5S", "1:02:05"],
    [3_600_000, "PT1H0M0S", "1:00:00"],
  ])("%i ms is %s, shown %s", (ms, iso, clock) => {
    expect(isoDuration(ms)).toBe(iso);
    expect(clockDuration(ms)).toBe(clock);
  });

  test.each([
    [{ releaseDate: "2009-01-01", precision: "year", addedDate: "" }, "en-US", "2009"],
    [{ releaseDate: "2023-04-20", precision: "day", addedDate: "" }, "en-US", "April 20, 2023"],
    [{ releaseDate: "2023-04-20", precision: "day", addedDate: "" }, "de-DE", "20. April 2023"],
  ] as const)("released %o in %s", (dateInfo, locale, text) => {
    expect(releasedText(dateInfo, locale)).toBe(text);
  });

  test("share links carry the share data and the absolute track address", () => {
    const links = shareLinks(aTrack().share, "https://tunewave.test");
    const twitter = new URL(links.twitter);
    expect(twitter.origin + twitter.pathname).toBe("https://twitter.com/intent/tweet");
    expect(twitter.searchParams.get("text")).toBe(
      "I used @Tunewave to discover Journey's End by Mattias Westlund.",
    );
    expect(twitter.searchParams.get("url")).toBe("https://tunewave.test/track/455974326/journeys-end");
    expect(links.email).toBe(
      `mailto:?subject=${encodeURIComponent("Journey's End - Mattias Westlund")}&body=${encodeURIComponent(
        "I used Tunewave to discover Journey's End by Mattias Westlund.\n\nhttps://tunewave.test/track/455974326/journeys-end",
      )}`,
    );
  });

  test.each([
    ["the origin's accessible colour", "#3034a2", "#3034a2"],
    ["a colour white text cannot be read on", "#f0f0f0", undefined],
    ["something that is no colour", "red", undefined],
  ])("the heading background: %s", (_name, accessible, background) => {
    const track = aTrack();
    const colours = { ...track.properties.colors, accessible };
    expect(headingBackgroundOf({ ...track, properties: { ...track.properties, colors: colours } })).toBe(
      background,
    );
  });
});

describe("loadTrackPage", () => {
  test("the main track then the related tracks with a preview make the playlist", async () => {
    const { page } = load(catalogue());
    const result = await page;
    expect(result.playlist.map((entry) => [entry.key, entry.src, entry.playlistBreak])).toEqual([
      ["455974326", "/media/previews/455974326.ogg", false],
      ["11", "/media/previews/11.ogg", false],
      ["13", "/media/previews/13.ogg", false],
    ]);
    expect(result.mainIndex).toBe(0);
    expect(result.related.map((track) => [track.key, track.playlistIndex])).toEqual([
      ["11", 1],
      ["12", undefined],
      ["13", 2],
    ]);
    expect(result.related[0]?.href).toBe("/track/11/song-11");
  });

  test.each([
    [
      "the video site's addresses",
      "/services/video/watch/1",
      "/services/video/embed/1",
      "/media/videos/1.jpg",
      true,
    ],
    [
      "an address elsewhere",
      "https://evil.test/watch/1",
      "/services/video/embed/1",
      "/media/videos/1.jpg",
      false,
    ],
    ["a script address", "javascript:alert(1)", "/services/video/embed/1", "/media/videos/1.jpg", false],
    [
      "an image elsewhere",
      "/services/video/watch/1",
      "/services/video/embed/1",
      "https://evil.test/1.jpg",
      false,
    ],
  ])(
    "the VIDEO section is followed only to the video site: %s",
    async (_, watchurl, embedurl, image, kept) => {
      const video = {
        type: "VIDEO" as const,
        tabname: "Video",
        watchurl,
        embedurl,
        image,
        arttrack: true,
        offset: -500,
      };
      const track = aTrack();
      const { page } = load(catalogue({ ...track, sections: [...track.sections, video] }));
      const result = await page;
      expect(result.video).toEqual(
        kept
          ? {
              watch: watchurl,
              embed: embedurl,
              image: { src: image, srcSet: `${image} 1x`, width: 520, height: 280 },
              artTrack: true,
              offsetMs: -500,
            }
          : undefined,
      );
    },
  );

  test("a track that is not a song is marked playlist-break", async () => {
    const { page } = load(catalogue(aTrack({ type: "CAMPAIGN" })));
    const result = await page;
    expect(result.playlist[0]?.playlistBreak).toBe(true);
    expect(result.playlist.slice(1).every((entry) => !entry.playlistBreak)).toBe(true);
  });

  test("the count comes from the tag count call, formatted for the language, only for MUSIC", async () => {
    const music = await load(catalogue()).page;
    // `demo`: the answer says the total includes a seeded count (decision 032).
    expect(music.count).toEqual({ total: 31337, formatted: "31,337", demo: true });
    const { page, asked } = load(catalogue(aTrack({ type: "TELEVISION" })));
    expect((await page).count).toBeUndefined();
    expect(asked.some((path) => path.includes("/count/v2/web/track/"))).toBe(false);
  });

  test("the related tracks' counts come from one tag count list call with repeated id= (spec 001 §7)", async () => {
    const { page, asked } = load(catalogue());
    const result = await page;
    expect(asked.filter((path) => path.startsWith("/services/count/v2/web/tracks?"))).toEqual([
      "/services/count/v2/web/tracks?id=11&id=12&id=13",
    ]);
    expect(result.related.map((track) => track.count)).toEqual([
      { total: 1200, formatted: "1,200", demo: true },
      undefined,
      { total: 4, formatted: "4", demo: false },
    ]);
  });

  test("without the tag count the track's own count is shown", async () => {
    const answers = Object.fromEntries(
      Object.entries(catalogue()).filter(([path]) => !path.startsWith("/services/count/")),
    );
    // The track's own number does not say whether it is seeded: not labelled.
    expect((await load(answers).page).count).toEqual({ total: 24088, formatted: "24,088", demo: false });
  });

  test("cover art at the track widths and the default size, the share image at 800", async () => {
    const result = await load(catalogue()).page;
    expect(result.cover).toEqual({
      src: "/media/art/track-455974326/375x375.jpg",
      srcSet: [75, 150, 225, 300, 375]
        .map((w) => `/media/art/track-455974326/${w}x${w}.jpg ${w}w`)
        .join(", "),
      width: 375,
      height: 375,
    });
    expect(result.shareImage.src).toBe("/media/art/track-455974326/800x800.jpg");
    expect(result.artist.avatar?.srcSet).toContain("/media/art/artist-1/150x150.jpg 150w");
  });

  test("credits: who performed and wrote the song (its credits call), the licence and the Debian package", async () => {
    const person = (roleNames: string[]) => ({
      id: "9",
      type: "credit-artists",
      attributes: { name: "David White", roleNames },
    });
    const category = (kind: string, title: string, roleNames: string[]) => ({
      id: `1490186607-${kind}`,
      type: "credit-categories",
      attributes: { title, kind },
      relationships: { "credit-artists": { data: [person(roleNames)] } },
    });
    const { page, asked } = load(
      catalogue(aTrack(), {
        "/services/amapi/v1/catalog/gb/songs/1490186607/credits?l=en-US": {
          data: [
            category("performer", "Performers", ["Performer"]),
            category("composer", "Composition & Lyrics", ["Composer"]),
          ],
        },
      }),
    );
    expect((await page).credits).toEqual({
      people: [
        { kind: "performer", title: "Performers", names: ["David White"] },
        { kind: "composer", title: "Composition & Lyrics", names: ["David White"] },
      ],
      licence: "GPL-2+",
      copyright: "2003 - 2009 by David White",
      package: "wesnoth-1.16-music",
      version: "1:1.16.9-1",
      packageHref: "https://packages.debian.org/wesnoth-1.16-music",
    });
    expect(asked).toContain("/services/amapi/v1/catalog/gb/songs/1490186607/credits?l=en-US");
  });

  test("a failed credits call leaves the people out, not the page", async () => {
    expect((await load(catalogue()).page).credits.people).toEqual([]);
  });

  test("a release of 90 days ago or less is new (spec 001 §4)", async () => {
    const fresh = aTrack({
      dateInfo: { releaseDate: "2025-03-03", precision: "day", addedDate: "2025-03-03" },
    });
    const old = aTrack({
      dateInfo: { releaseDate: "2025-03-02", precision: "day", addedDate: "2025-03-02" },
    });
    expect((await load(catalogue(fresh)).page).isNewRelease).toBe(true);
    expect((await load(catalogue(old)).page).isNewRelease).toBe(false);
  });

  test("plain lyrics without sync parameters; the synced call is not made", async () => {
    const { page, asked } = load(catalogue());
    const result = await page;
    expect(result.lyrics).toMatchObject({ demo: true, provider: "Tunewave demo lyrics", synced: undefined });
    expect(asked).not.toContain("/services/lyrics/v1/gb/songs/1490186607/synced");
  });

  /** With a trackLength parameter the track call carries it too. */
  function withLengthCall(answers: Record<string, unknown>) {
    return { ...answers, [`${trackPath}?trackLength=224009`]: answers[trackPath] };
  }

  test("synced lyrics after a web match, with the state at the loader's clock", async () => {
    const query = `&startDate=${now.getTime()}&offsetInMilliseconds=43000&trackLength=224009`;
    const result = await load(withLengthCall(catalogue()), query).page;
    expect(result.lyrics?.synced?.initial).toEqual({ shown: true, lineIndex: 0 });
    expect(result.lyrics?.synced?.lines).toHaveLength(2);
  });

  test("the syncedlyrics flag off: plain lyrics after a web match, and the synced call is not made", async () => {
    const query = `&startDate=${now.getTime()}&offsetInMilliseconds=43000&trackLength=224009`;
    const { page, asked } = load(withLengthCall(catalogue()), query, userAgents.windows, false);
    const result = await page;
    expect(result.lyrics?.synced).toBeUndefined();
    expect(result.lyrics).toMatchObject({ provider: "Tunewave demo lyrics" });
    expect(asked).not.toContain("/services/lyrics/v1/gb/songs/1490186607/synced");
  });

  test("no synced lyrics once the heard song is over", async () => {
    const query = `&startDate=${now.getTime() - 600_000}&offsetInMilliseconds=43000&trackLength=224009`;
    const { page, asked } = load(withLengthCall(catalogue()), query);
    expect((await page).lyrics?.synced).toBeUndefined();
    expect(asked).not.toContain("/services/lyrics/v1/gb/songs/1490186607/synced");
  });

  test("itsct and trackLength are passed to the track call (spec 001 §7)", async () => {
    const answers = catalogue();
    const track = answers[trackPath];
    const { page, asked } = load(
      { ...answers, [`${trackPath}?itsct=charts&trackLength=180000`]: track },
      "&itsct=charts&trackLength=180000",
    );
    await page;
    expect(asked[0]).toBe(`${trackPath}?itsct=charts&trackLength=180000`);
  });

  test("an unknown track is not found; a payload of another type is a data error", async () => {
    await expect(load({}).page).rejects.toMatchObject({ type: "notfound" });
    const podcast = { ...aTrack(), type: "PODCAST" };
    await expect(load(catalogue(podcast)).page).rejects.toMatchObject({
      type: "baddata",
      message: "Track data type not valid",
    });
  });

  test("the artist section: top songs without the page's own track, at most five", async () => {
    const result = await load(catalogue()).page;
    expect(result.artist.name).toBe("Mattias Westlund");
    expect(result.artist.href).toBe("/artist/mattias-westlund/329510217");
    expect(result.artist.topSongs.map((song) => song.key)).toEqual(["21", "22", "23", "24", "25"]);
    expect(result.artist.topSongs[0]?.href).toBe("/track/21/top-21");
  });

  test("optional parts that fail leave the page standing", async () => {
    const { page } = load({ [trackPath]: aTrack() });
    const result = await page;
    expect(result.related).toEqual([]);
    expect(result.artist.topSongs).toEqual([]);
    expect(result.playlist).toHaveLength(1);
  });

  test("JSON-LD MusicRecording", async () => {
    const result = await load(catalogue()).page;
    expect(musicRecordingJsonLd(result, "https://tunewave.test")).toEqual({
      "@context": "https://schema.org",
      "@type": "MusicRecording",
      name: "Journey's End",
      url: "https://tunewave.test/track/455974326/journeys-end",
      image: "https://tunewave.test/media/art/track-455974326/800x800.jpg",
      duration: "PT3M44S",
      datePublished: "2009-01-01",
      genre: "Romantic Classical",
      byArtist: {
        "@type": "MusicGroup",
        name: "Mattias Westlund",
        url: "https://tunewave.test/artist/mattias-westlund/329510217",
      },
      inAlbum: { "@type": "MusicAlbum", name: "The Battle for Wesnoth OST" },
      recordingOf: {
        "@type": "MusicComposition",
        name: "Journey's End",
        lyrics: {
          "@type": "CreativeWork",
          text: lyricExcerpt(result.lyrics?.lines ?? [], lyricSampleLength),
        },
      },
    });
  });

  test("the heading colour keeps white text at 4.5:1 or more", async () => {
    const result = await load(catalogue()).page;
    expect(contrastRatio(result.background ?? "#ffffff", "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });
});
