import { env } from "cloudflare:test";
import { expect, test } from "vitest";
import { agent } from "./browser-jar";
import { getAs } from "./site";

// Every address the site serves carries an alias encoded once (decision 058), whatever the alias
// holds. The catalogue's own aliases are slugs ("a-song"), which need no encoding, so each test
// gives a track or an artist an alias a remote catalogue may have (a space, a slash, "?", "%",
// letters outside ASCII) before anything asks for it, and reads the answers that carry it as a
// browser and the pages do. Each test asks for addresses no other test asks for: the services
// proxy keeps answers by address for the isolate.

const get = getAs({ "user-agent": agent });

/** An alias with every character a path segment must encode, and its one encoding. */
const trackAlias = { raw: "ça va / why? 100%", encoded: "%C3%A7a%20va%20%2F%20why%3F%20100%25" };
const artistAlias = { raw: "AC/DC live", encoded: "AC%2FDC%20live" };

type Row = { key: number; artist_id: number; artist_adamid: string };

async function aTrack(offset: number): Promise<Row> {
  const row = await env.DB.prepare(
    `SELECT t.key, t.artist_id, a.adamid AS artist_adamid FROM tracks t JOIN artists a ON a.id = t.artist_id
     ORDER BY t.key LIMIT 1 OFFSET ?`,
  )
    .bind(offset)
    .first<Row>();
  if (!row) throw new Error("the catalogue has no tracks");
  return row;
}

async function rename(row: Row): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("UPDATE tracks SET alias = ? WHERE key = ?").bind(trackAlias.raw, row.key),
    env.DB.prepare("UPDATE artists SET alias = ? WHERE id = ?").bind(artistAlias.raw, row.artist_id),
  ]);
}

test("the origin's track and artist answers link to the pages with the alias encoded", async () => {
  const row = await aTrack(3);
  await rename(row);
  const trackPage = `/track/${row.key}/${trackAlias.encoded}`;
  const artistPage = `/artist/${artistAlias.encoded}/${row.artist_adamid}`;

  const track = (await (await get(`/services/track/v1/en/GB/web/${row.key}`)).json()) as {
    url: string;
    share: { href: string };
    sections: { type: string; url?: string }[];
  };
  expect(track.url).toBe(trackPage);
  expect(track.share.href).toBe(trackPage);
  expect(track.sections.find((section) => section.type === "ARTIST")?.url).toBe(artistPage);

  const artist = (await (await get(`/services/artist/v1/en/GB/web/${row.artist_id}`)).json()) as {
    url: string;
    weburl: string;
    share: { href: string };
  };
  expect([artist.url, artist.weburl, artist.share.href]).toEqual([artistPage, artistPage, artistPage]);
});

test("the track page's artist link is the artist's page, which answers", async () => {
  const row = await aTrack(4);
  await rename(row);
  const response = await get(`/track/${row.key}/${trackAlias.encoded}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  const artistHref = /<p class="track-hero__artist"><a [^>]*href="([^"]+)"/.exec(html)?.[1];
  expect(artistHref).toBe(`/artist/${artistAlias.encoded}/${row.artist_adamid}`);
  expect((await get(artistHref ?? "")).status).toBe(200);
});

test("an event page's setlist links to its songs with the alias encoded", async () => {
  const list = (await (
    await get("/services/event/v1/GB/shazam-events?filter[isFuture]=true&l=de")
  ).json()) as {
    data: { id: string }[];
  };
  const [event] = list.data;
  if (!event) throw new Error("no upcoming event");
  // The event id ends with its artist's id (origin/events.ts eventIdOf): that artist's songs are its setlist.
  const artistId = event.id.slice(5);
  await env.DB.prepare("UPDATE tracks SET alias = ? WHERE artist_id = ?")
    .bind(trackAlias.raw, artistId)
    .run();

  const response = await get(`/event/${event.id}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  const setlist = [...html.matchAll(/href="(\/track\/[^"]*)"/g)].map((match) => match[1]);
  expect(setlist.length).toBeGreaterThan(0);
  for (const href of setlist) expect(href).toMatch(new RegExp(`^/track/\\d+/${trackAlias.encoded}$`));
  // The link opens the song's page.
  expect((await get(setlist[0] ?? "")).status).toBe(200);
});
