import { expect, test } from "vitest";
import {
  artistRows,
  searchFirstPage,
  searchNextPage,
  songRows,
} from "#app/search/browser/search-box-results.ts";
import { SiteError } from "#rules/errors.ts";

function song(id: number, name: string, alias: string) {
  return {
    id: String(id),
    type: "songs",
    href: `/v1/catalog/gb/songs/${id}`,
    attributes: {
      name,
      artistName: "Ada Lovelace & The Engines",
      albumName: "Analytical",
      artwork: { url: `/media/art/${id}/{w}x{h}.jpg`, width: 800, height: 800, bgColor: "112233" },
      url: `/track/${id}7/${alias}`,
      previews: [{ url: `/media/previews/${id}7.ogg` }],
      releaseDate: "2024-01-01",
      durationInMillis: 200_000,
      genreNames: ["Electronic"],
      playParams: { id: String(id), kind: "song" },
      hasLyrics: false,
      shazamKey: `${id}7`,
      alias,
    },
  };
}

function artist(id: number, name: string, alias: string, withArtwork = true) {
  return {
    id: String(id),
    type: "artists",
    href: `/v1/catalog/gb/artists/${id}`,
    attributes: {
      name,
      ...(withArtwork
        ? { artwork: { url: `/media/art/a${id}/{w}x{h}.jpg`, width: 800, height: 800, bgColor: "445566" } }
        : {}),
      url: `/artist/${alias}/${id}`,
      genreNames: [],
      alias,
      shazamId: `${id}9`,
    },
  };
}

/** A fetch answering `body` with `status`, recording what it was asked. */
function answer(body: unknown, status = 200) {
  const calls: { url: string; method: string | undefined }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), method: init.method });
    return new Response(JSON.stringify(body), { status });
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

test("song rows link to the track page in the visitor's language, with a small thumbnail", () => {
  expect(songRows([song(11, "Note G", "note-g")] as never, "de")).toEqual([
    {
      id: "11",
      title: "Note G",
      subtitle: "Ada Lovelace & The Engines",
      href: "/de/track/117/note-g",
      image: {
        src: "/media/art/11/75x75.jpg",
        srcSet: "/media/art/11/75x75.jpg 75w, /media/art/11/150x150.jpg 150w",
      },
    },
  ]);
});

test("artist rows link to the artist page; an artist without artwork has no image", () => {
  expect(artistRows([artist(21, "Ada", "ada", false)] as never, "en")).toEqual([
    { id: "21", title: "Ada", href: "/artist/ada/21", image: undefined },
  ]);
});

test("the first page: one GET with both types, the term encoded, page size 3", async () => {
  const { calls, fetch } = answer({
    results: {
      songs: {
        href: "/v1/catalog/gb/search?offset=0&term=a%26b&types=songs",
        next: "/v1/catalog/gb/search?offset=3&term=a%26b&types=songs",
        data: [song(1, "One", "one"), song(2, "Two", "two"), song(3, "Three", "three")],
      },
      artists: {
        href: "/v1/catalog/gb/search?offset=0&term=a%26b&types=artists",
        data: [artist(4, "Four", "four")],
      },
    },
  });
  const page = await searchFirstPage("GB", "a&b", "en", { fetch });
  expect(calls).toEqual([
    { url: "/services/amapi/v1/catalog/gb/search?types=songs,artists&term=a%26b&limit=3", method: "GET" },
  ]);
  expect(page.songs.items.map((row) => row.title)).toEqual(["One", "Two", "Three"]);
  expect(page.songs.next).toBe("/v1/catalog/gb/search?offset=3&term=a%26b&types=songs");
  expect(page.artists.items.map((row) => row.title)).toEqual(["Four"]);
  expect(page.artists.next).toBeUndefined();
});

test("a group the answer leaves out is an empty group", async () => {
  const page = await searchFirstPage("GB", "zz", "en", { fetch: answer({ results: {} }).fetch });
  expect(page).toEqual({ songs: { items: [], next: undefined }, artists: { items: [], next: undefined } });
});

test("the next page goes through the next link with limit=3 and reads its own group", async () => {
  const { calls, fetch } = answer({
    results: {
      artists: {
        href: "/v1/catalog/gb/search?offset=3&term=a&types=artists",
        data: [artist(5, "Five", "five")],
      },
    },
  });
  const page = await searchNextPage("artists", "/v1/catalog/gb/search?offset=3&term=a&types=artists", "fr", {
    fetch,
  });
  expect(calls.map((call) => call.url)).toEqual([
    "/services/amapi/v1/catalog/gb/search?offset=3&term=a&types=artists&limit=3",
  ]);
  expect(page).toEqual({
    items: [
      {
        id: "5",
        title: "Five",
        href: "/fr/artist/five/5",
        image: {
          src: "/media/art/a5/75x75.jpg",
          srcSet: "/media/art/a5/75x75.jpg 75w, /media/art/a5/150x150.jpg 150w",
        },
      },
    ],
    next: undefined,
  });
});

test("a next link that is not the catalogue's search is not followed", async () => {
  const { calls, fetch } = answer({ results: {} });
  expect(await searchNextPage("songs", "https://evil.example/steal?x=1", "en", { fetch })).toEqual({
    items: [],
    next: undefined,
  });
  expect(calls).toEqual([]);
});

test.each([
  ["a failed answer", answer({ error: "invalidparam", message: "term" }, 400).fetch, "serviceerror"],
  ["an answer of the wrong shape", answer({ results: { songs: { data: [{ id: "x" }] } } }).fetch, "baddata"],
  [
    "no network",
    (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof globalThis.fetch,
    "network",
  ],
])("%s fails with a catalogue error", async (_name, fetch, type) => {
  const failure = await searchFirstPage("GB", "a", "en", { fetch }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(SiteError);
  expect((failure as SiteError).type).toBe(type);
});
