import { env, SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { get, metaContent } from "./site";

// The album and playlist pages (spec 001 §3 "Catalogue item", decision 026), against the
// embedded origin's catalogue in D1.

const site = "https://tunewave.test";

type AlbumRow = { id: string; alias: string; title: string; copyright: string; tracks: number };
type PlaylistRow = { id: string; name: string; curator: string; tracks: number };

/** The album with the most tracks. */
async function biggestAlbum(): Promise<AlbumRow> {
  const row = await env.DB.prepare(
    `SELECT al.id, al.alias, al.title, al.copyright, COUNT(t.key) AS tracks
       FROM albums al JOIN tracks t ON t.album_id = al.id
      GROUP BY al.id ORDER BY tracks DESC, al.id LIMIT 1`,
  ).first<AlbumRow>();
  if (!row) throw new Error("the catalogue has no album");
  return row;
}

async function albumTrackKeys(id: string): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT key FROM tracks WHERE album_id = ?")
    .bind(id)
    .all<{ key: number }>();
  return results.map((row) => String(row.key));
}

/** The editorial playlist with the most tracks. */
async function biggestPlaylist(): Promise<PlaylistRow> {
  const row = await env.DB.prepare(
    `SELECT p.id, p.name, p.curator, COUNT(pt.track_key) AS tracks
       FROM playlists p JOIN playlist_tracks pt ON pt.playlist_id = p.id
      GROUP BY p.id ORDER BY tracks DESC, p.id LIMIT 1`,
  ).first<PlaylistRow>();
  if (!row) throw new Error("the catalogue has no playlist");
  return row;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("'", "&#x27;");
}

function jsonLd(text: string): Record<string, unknown> & { track: Record<string, unknown>[] } {
  return JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(text)?.[1] ?? "{}");
}

function rows(text: string): string[] {
  return text.split('<li class="track-row track-row--playable">').slice(1);
}

describe("the album page", () => {
  test("shows the artwork, every song linking to its track page with its preview, and the credits", async () => {
    const album = await biggestAlbum();
    const path = `/album/${album.id}/${album.alias}`;
    const response = await get(path);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(`<h1 class="item-hero__name">${escapeHtml(album.title)}</h1>`);
    expect(text).toMatch(
      /<img class="item-hero__artwork" src="\/media\/art\/[^"]+\/800x800\.jpg" srcSet="[^"]+ 200w, [^"]+ 400w, [^"]+ 600w, [^"]+ 800w"/,
    );
    const keys = await albumTrackKeys(album.id);
    const songRows = rows(text);
    expect(songRows.length).toBe(keys.length);
    for (const key of keys) expect(text).toMatch(new RegExp(`href="/track/${key}/[^"]+"`));
    // Until the page's script runs, each play control is the preview file itself.
    for (const row of songRows) expect(row).toMatch(/class="play-button" href="\/media\/previews\/\d+\.ogg"/);
    expect(songRows[0]).toContain('<span class="track-row__rank">1</span>');
    expect(text).toContain('<h2 id="item-credits">Credits</h2>');
    expect(text).toContain(escapeHtml(album.copyright));
    expect(text).toMatch(/<h2 class="share-links__heading">Share this album<\/h2>/);
  });

  test("meta: og:type music.album, the artwork, and MusicAlbum JSON-LD with every recording", async () => {
    const album = await biggestAlbum();
    const path = `/album/${album.id}/${album.alias}`;
    const text = await (await get(path)).text();
    expect(text).toContain(`<link rel="canonical" href="${site}${path}"/>`);
    expect(text).toContain(`<link rel="amphtml" href="${site}/amp${path}"/>`);
    expect(metaContent(text, "property", "og:type")).toBe("music.album");
    expect(metaContent(text, "property", "og:image")).toMatch(
      /^https:\/\/tunewave\.test\/media\/art\/.+\.jpg$/,
    );
    expect(metaContent(text, "property", "al:android:url")).toBe(`tunewave:/${path}`);
    const ld = jsonLd(text);
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "MusicAlbum",
      name: album.title,
      url: `${site}${path}`,
      numTracks: album.tracks,
    });
    expect(ld.track.length).toBe(album.tracks);
    expect(ld.track[0]).toMatchObject({ "@type": "MusicRecording", position: 1 });
    expect(String(ld.track[0]?.url)).toMatch(/^https:\/\/tunewave\.test\/track\/\d+\//);
  });

  test.each([
    ["", "Songs", "Credits"],
    ["/de", "Titel", "Mitwirkende"],
    ["/ja", "曲", "クレジット"],
    ["/pt-br", "Músicas", "Créditos"],
  ])("in '%s'", async (prefix, songs, credits) => {
    const album = await biggestAlbum();
    const response = await get(`${prefix}/album/${album.id}/${album.alias}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(`<h2 id="item-songs">${songs}</h2>`);
    expect(text).toContain(`<h2 id="item-credits">${credits}</h2>`);
    expect(text).toMatch(new RegExp(`href="${prefix}/track/\\d+/`));
  });

  test("the id alone, a wrong alias and a language prefix move to the one address", async () => {
    const album = await biggestAlbum();
    const canonical = `/album/${album.id}/${album.alias}`;
    for (const [from, to] of [
      [`/album/${album.id}`, canonical],
      [`/album/${album.id}/wrong-alias?co=GB`, `${canonical}?co=GB`],
      [`/de/album/${album.id}`, `/de${canonical}`],
    ] as const) {
      const response = await get(from);
      expect(response.status, from).toBe(301);
      expect(response.headers.get("location"), from).toBe(to);
    }
  });

  test.each([
    ["an unknown id", "/album/999999999999/nothing", "This content is no longer available"],
    ["an id that is no number", "/album/abc/def", "This content is no longer available"],
    ["an id too long to be one", `/album/${"9".repeat(20)}`, "This content is no longer available"],
    ["an unknown id in German", "/de/album/999999999999/nichts", "Dieser Inhalt ist nicht mehr verfügbar"],
  ])("%s is a 404: content no longer available (spec 001 §8)", async (_name, path, message) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(message);
  });
});

describe("the playlist page", () => {
  test("shows the curator and every song linking to its track page, with MusicPlaylist JSON-LD", async () => {
    const playlist = await biggestPlaylist();
    const path = `/playlist/${playlist.id}`;
    const response = await get(path);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(`<h1 class="item-hero__name">${escapeHtml(playlist.name)}</h1>`);
    expect(text).toContain(`Curated by ${escapeHtml(playlist.curator)}`);
    expect(rows(text).length).toBe(playlist.tracks);
    for (const row of rows(text)) {
      expect(row).toMatch(/href="\/track\/\d+\/[^"]+"/);
      expect(row).toMatch(/href="\/media\/previews\/\d+\.ogg"/);
    }
    expect(metaContent(text, "property", "og:type")).toBe("music.playlist");
    const ld = jsonLd(text);
    expect(ld).toMatchObject({
      "@type": "MusicPlaylist",
      name: playlist.name,
      url: `${site}${path}`,
      numTracks: playlist.tracks,
    });
    expect(ld.track.length).toBe(playlist.tracks);
  });

  test("in Korean", async () => {
    const playlist = await biggestPlaylist();
    const response = await get(`/ko/playlist/${playlist.id}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('<p class="item-hero__eyebrow">플레이리스트</p>');
    expect(text).toMatch(/href="\/ko\/track\/\d+\//);
  });

  test.each([
    ["an unknown playlist", "/playlist/pl.no-such-list", 404, "This content is no longer available"],
    [
      "a chart list, which has its chart page",
      "/playlist/ip-world-chart",
      404,
      "This content is no longer available",
    ],
    [
      "markup in the id",
      "/playlist/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
      404,
      "This content is no longer available",
    ],
    ["an unknown playlist in French", "/fr/playlist/pl.rien", 404, "Ce contenu n&#x27;est plus disponible"],
  ])("%s is a 404: content no longer available (spec 001 §8)", async (_name, path, status, message) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(text).toContain(message);
    expect(text).not.toContain("<script>alert(1)");
  });
});

describe("links to the pages", () => {
  test("the artist page's albums and playlists open our pages, not the streaming service", async () => {
    const album = await biggestAlbum();
    const { results } = await env.DB.prepare(
      `SELECT DISTINCT a.id, a.alias FROM artists a JOIN tracks t ON t.artist_id = a.id WHERE t.album_id = ?`,
    )
      .bind(album.id)
      .all<{ id: number; alias: string }>();
    const artist = results[0];
    if (!artist) throw new Error("the album has no artist");
    // The artist's page, wherever its one address is.
    const text = await (await SELF.fetch(`${site}/artist/${artist.id}/${artist.alias}`)).text();
    expect(text).toContain(`href="/album/${album.id}/${album.alias}"`);
    expect(text).toMatch(/<li class="tile"><a[^>]* href="\/playlist\/pl\.[^"]+"/);
    // Tiles stay on the site; only "Listen on Apple Music" leaves it.
    expect(text).not.toMatch(/<li class="tile"><a[^>]* href="https:/);
  });

  test("the album page links the playlists its songs are in, and those pages answer", async () => {
    const album = await biggestAlbum();
    const text = await (await get(`/album/${album.id}/${album.alias}`)).text();
    const playlist = /<h2 id="item-featured-in">[\s\S]*?href="(\/playlist\/[^"]+)"/.exec(text)?.[1];
    expect(playlist).toBeDefined();
    expect((await get(playlist ?? "")).status).toBe(200);
  });

  test("the sitemaps list every album and playlist page", async () => {
    const album = await biggestAlbum();
    const playlist = await biggestPlaylist();
    const albums = await (await get("/sitemaps/albums-1.xml")).text();
    expect(albums).toContain(`<loc>${site}/album/${album.id}/${album.alias}</loc>`);
    expect(albums).toContain(`<loc>${site}/de/album/${album.id}/${album.alias}</loc>`);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM albums").first<{ n: number }>();
    expect(albums.split("<url>").length - 1).toBe((count?.n ?? 0) * 22);
    const playlists = await (await get("/sitemaps/playlists-1.xml")).text();
    expect(playlists).toContain(`<loc>${site}/playlist/${playlist.id}</loc>`);
  });
});
