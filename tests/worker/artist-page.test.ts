import { env } from "cloudflare:test";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { artistsDocumentSchema } from "#rules/schemas/amapi.ts";
import { get, metaContent } from "./site";

const site = "https://tunewave.test";

type ArtistRow = { id: number; adamid: string; name: string; alias: string; tracks: number };

/** The catalogue's artist with the most recordings (the richest page), read from the origin's D1. */
async function richestArtist(): Promise<ArtistRow> {
  const row = await env.DB.prepare(
    `SELECT a.id, a.adamid, a.name, a.alias, COUNT(t.key) AS tracks
       FROM artists a JOIN tracks t ON t.artist_id = a.id
      GROUP BY a.id ORDER BY tracks DESC, a.id LIMIT 1`,
  ).first<ArtistRow>();
  if (!row) throw new Error("the catalogue has no artist");
  return row;
}

async function catalogueArtist(adamid: string) {
  const response = await get(
    `/services/amapi/v1/catalog/gb/artists/${adamid}?extend=artistBio&views=top-songs,full-albums,similar-artists,playlists,featured-playlists,latest-release&limit=10`,
  );
  const [artist] = v.parse(artistsDocumentSchema, await response.json()).data;
  if (!artist) throw new Error(`no catalogue artist ${adamid}`);
  return artist;
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("'", "&#x27;");
}

describe("the artist page", () => {
  test("shows avatar, bio, latest release, top songs, albums, playlists, similar artists and share links", async () => {
    const artist = await richestArtist();
    const catalogue = await catalogueArtist(artist.adamid);
    const path = `/artist/${artist.alias}/${artist.adamid}`;
    const response = await get(path);
    expect(response.status).toBe(200);
    const text = await response.text();

    expect(text).toContain(`<h1 class="artist-hero__name">${escapeHtml(artist.name)}</h1>`);
    // The avatar with its size reserved and every catalogue width.
    expect(text).toMatch(
      /<img class="artist-hero__avatar" src="\/media\/art\/[^"]+\/800x800\.jpg" srcSet="[^"]+ 200w, [^"]+ 400w, [^"]+ 600w, [^"]+ 800w" sizes="[^"]+" width="200" height="200" alt="Photo of /,
    );
    expect(text).toContain('<h2 id="artist-about">');
    expect(text).toContain(escapeHtml(catalogue.attributes.artistBio ?? "").slice(0, 60));

    const views = catalogue.views ?? {};
    const topSongs = views["top-songs"]?.data ?? [];
    expect(topSongs.length).toBeGreaterThan(0);
    expect(text).toContain('<h2 id="artist-top-songs">Top songs</h2>');
    expect(count(text, /<li class="track-row">/g)).toBe(topSongs.length);
    for (const song of topSongs) {
      if (song.type === "songs")
        expect(text).toContain(`href="/track/${song.attributes.shazamKey}/${song.attributes.alias}"`);
    }

    const latest = views["latest-release"]?.data[0];
    expect(latest?.type).toBe("albums");
    expect(text).toContain('<h2 id="artist-latest">Latest release</h2>');
    if (latest?.type === "albums") expect(text).toContain(escapeHtml(latest.attributes.name));

    const albums = views["full-albums"]?.data ?? [];
    expect(albums.length).toBeGreaterThan(0);
    expect(text).toContain(`<h2 id="artist-albums">Albums by ${escapeHtml(artist.name)}</h2>`);

    const playlists = new Set(
      [...(views.playlists?.data ?? []), ...(views["featured-playlists"]?.data ?? [])].map((p) => p.id),
    );
    if (playlists.size > 0) expect(text).toContain('<h2 id="artist-playlists">');

    const similar = views["similar-artists"]?.data ?? [];
    expect(similar.length).toBeGreaterThan(0);
    expect(text).toContain('<h2 id="artist-similar">Similar artists</h2>');
    for (const other of similar) {
      if (other.type === "artists" && "attributes" in other && other.attributes) {
        expect(text).toContain(`href="/artist/${other.attributes.alias}/${other.id}"`);
      }
    }
    // Images in tiles carry their size.
    expect(text).toMatch(
      /<li class="tile"><a[^>]*><img src="[^"]+" srcSet="[^"]+" sizes="[^"]+" width="800" height="800"/,
    );

    // Share: Twitter and e-mail, plain links to the canonical URL.
    expect(text).toContain(`url=${encodeURIComponent(`${site}${path}`)}`);
    expect(text).toMatch(/href="https:\/\/twitter\.com\/intent\/tweet\?text=[^"]+"/);
    expect(text).toMatch(/href="mailto:\?subject=[^"]+&amp;body=[^"]+"/);
  });

  test("meta: MusicGroup JSON-LD, og:type music.musician with the avatar and its size, app links", async () => {
    const artist = await richestArtist();
    const path = `/artist/${artist.alias}/${artist.adamid}`;
    const text = await (await get(path)).text();
    expect(text).toMatch(
      new RegExp(`<title>${escapeHtml(artist.name)}: top songs, albums and biography \\| Tunewave</title>`),
    );
    expect(metaContent(text, "property", "og:type")).toBe("music.musician");
    expect(metaContent(text, "property", "og:url")).toBe(`${site}${path}`);
    expect(metaContent(text, "property", "og:image")).toMatch(
      /^https:\/\/tunewave\.test\/media\/art\/[^/]+\/800x800\.jpg$/,
    );
    expect(metaContent(text, "property", "og:image:width")).toBe("800");
    expect(metaContent(text, "property", "og:image:height")).toBe("800");
    expect(metaContent(text, "property", "og:image:alt")).toBe(`Photo of ${escapeHtml(artist.name)}`);
    expect(metaContent(text, "name", "twitter:card")).toBe("summary_large_image");
    expect(metaContent(text, "property", "al:android:url")).toBe(`tunewave:/${path}`);
    expect((metaContent(text, "name", "description") ?? "").length).toBeLessThanOrEqual(160);
    expect(text).toContain(`<link rel="canonical" href="${site}${path}"/>`);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(text)?.[1] ?? "{}");
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "MusicGroup",
      name: artist.name,
      url: `${site}${path}`,
    });
    expect(ld.track.length).toBeGreaterThan(0);
    expect(ld.track[0]).toMatchObject({ "@type": "MusicRecording" });
  });

  test("in another language", async () => {
    const artist = await richestArtist();
    const response = await get(`/de/artist/${artist.alias}/${artist.adamid}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('<html lang="de-DE"');
    expect(text).toContain('<p class="artist-hero__eyebrow">Künstler</p>');
    expect(text).toContain("Ähnliche Künstler");
    expect(text).toMatch(/href="\/de\/track\/\d+\//);
  });

  test.each([
    [
      "/artist/-/{id}",
      (a: ArtistRow) => `/artist/-/${a.id}`,
      (a: ArtistRow) => `/artist/${a.alias}/${a.adamid}`,
    ],
    [
      "/artist/{id}/{alias}",
      (a: ArtistRow) => `/artist/${a.id}/${a.alias}`,
      (a: ArtistRow) => `/artist/${a.alias}/${a.adamid}`,
    ],
    [
      "/artist/{id}/{anything}",
      (a: ArtistRow) => `/artist/${a.id}/x`,
      (a: ArtistRow) => `/artist/${a.alias}/${a.adamid}`,
    ],
    [
      "a wrong alias",
      (a: ArtistRow) => `/artist/not-${a.alias}/${a.adamid}`,
      (a: ArtistRow) => `/artist/${a.alias}/${a.adamid}`,
    ],
    [
      "the query string is kept",
      (a: ArtistRow) => `/artist/-/${a.id}?itsct=x`,
      (a: ArtistRow) => `/artist/${a.alias}/${a.adamid}?itsct=x`,
    ],
    [
      "a language prefix",
      (a: ArtistRow) => `/ja/artist/-/${a.id}`,
      (a: ArtistRow) => `/ja/artist/${a.alias}/${a.adamid}`,
    ],
  ])("%s moves to the canonical URL (301)", async (_name, from, to) => {
    const artist = await richestArtist();
    const response = await get(from(artist));
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(to(artist));
  });

  test.each([
    ["a missing artist id", "/artist/-/1", "/error/notfound"],
    ["a missing artist id with an alias", "/artist/1/nobody", "/error/notfound"],
    ["a missing adam id", "/artist/nobody/1", "/error/notfound"],
    ["a missing artist under a language prefix", "/ja/artist/-/1", "/ja/error/notfound"],
  ])("%s moves to the not-found page (spec 001 §8)", async (_name, path, location) => {
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(location);
    const notFound = await get(location);
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toContain('class="error-page"');
  });

  test.each([
    ["no id at all", "/artist/abc/def"],
    ["/artist/-/ without a number", "/artist/-/nobody"],
    ["one segment", "/artist/nobody"],
    ["an unknown language", "/xx/artist/-/1"],
  ])("%s names no artist: the not-found page in place (404)", async (_name, path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('class="error-page"');
  });

  test("an adam id that is the artist id of nobody, in the -/{id} form, is not taken for an adam id", async () => {
    const artist = await richestArtist();
    const clash = await env.DB.prepare("SELECT id FROM artists WHERE id = ?")
      .bind(Number(artist.adamid))
      .first();
    expect(clash, "an artist whose id is that adam id").toBeNull();
    const response = await get(`/artist/-/${artist.adamid}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/error/notfound");
  });
});
