import "#tests/all-languages.ts";
import { expect, test } from "vitest";
import { ampCacheControl } from "#amp/http.ts";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { languages, localizedPath } from "#rules/languages.ts";
import { agent, site } from "./browser-jar";
import { decode, getAs } from "./site";

const get = getAs({ "user-agent": agent });

type Upcoming = {
  data: { id: string }[];
  resources: Record<string, Record<string, { attributes: Record<string, unknown> }>>;
};

async function upcomingIds(query = ""): Promise<string[]> {
  const response = await get(`/services/event/v1/GB/shazam-events?filter[isFuture]=true${query}`);
  return ((await response.json()) as Upcoming).data.map((d) => d.id);
}

function jsonLd(html: string): Record<string, unknown> {
  const text = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)?.[1] ?? "{}";
  return JSON.parse(text) as Record<string, unknown>;
}

test("an event page shows the concert, its artist, setlist links, QR code, sharing and a MusicEvent", async () => {
  const [id] = await upcomingIds();
  expect(id).toBeDefined();
  const response = await get(`/event/${id}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain('<h1 id="event-title">');
  expect(html).toMatch(/<img[^>]+src="\/services\/qr\/event\/en\/[A-Z]{2}\/\d+\/330x330\.svg"/);
  expect(html).toMatch(/href="\/track\/\d+\/[^"]+"/);
  expect(html).toContain("https://twitter.com/intent/tweet?");
  expect(html).toContain("mailto:?subject=");
  expect(html).toContain('<meta property="og:title"');
  expect(html).toContain('<meta name="twitter:card" content="summary');
  expect(html).toContain(`<link rel="amphtml" href="${site}/amp/event/${id}"/>`);
  const data = jsonLd(html);
  expect(data["@type"]).toBe("MusicEvent");
  expect(data.url).toBe(`${site}/event/${id}`);
  expect((data.location as { "@type": string })["@type"]).toBe("Place");
});

test("the event page answers in every language with its own title", async () => {
  const [id] = await upcomingIds();
  for (const { key } of languages) {
    const { t } = serverStrings(key);
    const response = await get(localizedPath(key, `/event/${id}`));
    expect(response.status, key).toBe(200);
    const html = await response.text();
    const title = decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "");
    expect(title, key).toContain(t("concerts:eventTitle", { name: "" }).split("|")[1]?.trim() ?? "Tunewave");
    expect(html, key).toContain(`<h2 id="event-qr">${t("concerts:qrTitle").replaceAll("'", "&#x27;")}</h2>`);
  }
});

test("unknown, malformed and longer event paths are 404 'concert unavailable', never a 500", async () => {
  const { t } = serverStrings("en");
  for (const path of [
    "/event/123",
    "/event/abc",
    "/event/29209999999999",
    "/event/%3Cscript%3E",
    "/amp/event/123",
  ]) {
    const response = await get(path);
    expect(response.status, path).toBe(404);
    const html = await response.text();
    expect(html, path).toContain(t("error.concertunavailable"));
    expect(html, path).not.toContain("<script>alert");
  }
  const [id] = await upcomingIds();
  expect((await get(`/event/${id}/extra`)).status).toBe(404);
});

test("the AMP event page is the same page as AMP, cached as a page", async () => {
  const [id] = await upcomingIds();
  const response = await get(`/amp/event/${id}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe(ampCacheControl.page);
  const html = await response.text();
  expect(html).toContain("<html amp");
  expect(html).toContain('<h1 id="event-title">');
  expect(html).toContain("<amp-img");
  expect(html).not.toMatch(/<script(?![^>]*(ampproject|application\/ld\+json))/);
});

test("the concert list groups by distance, and each filter is an address that works without JavaScript", async () => {
  const all = await get("/concerts");
  expect(all.status).toBe(200);
  const html = await all.text();
  expect(html).toContain('id="concerts-title"');
  expect(html).toMatch(/href="\/event\/\d+"/);
  // London: the nearest group first, then the rest of the country.
  const near = await (await get("/concerts?in=near&lat=51.5074&lng=-0.1278")).text();
  const firstGroup = /<h2 id="concerts-(lt100miles|country|all)"/.exec(near)?.[1];
  expect(firstGroup).toBe("lt100miles");
  const country = await (await get("/concerts?in=country", { headers: { "cf-ipcountry": "US" } })).text();
  expect(country).not.toContain('id="concerts-all"');
  for (const when of ["today", "tomorrow", "weekend"]) {
    expect((await get(`/concerts?when=${when}`)).status, when).toBe(200);
  }
  const range = await get("/concerts?when=range&from=2030-01-01&to=2030-01-07");
  expect(range.status).toBe(200);
  const bad = await get("/concerts?when=range&from=2030-01-07&to=2030-01-01");
  expect(bad.status).toBe(400);
  expect((await get("/concerts?lat=north")).status).toBe(400);
});

test("the artist filter keeps only the artist's concerts, and the artist page links to them", async () => {
  const [id] = await upcomingIds();
  const artistId = id?.slice(5) ?? "";
  const html = await (await get(`/concerts?artist=${artistId}`)).text();
  const ids = [...html.matchAll(/href="\/event\/(\d+)"/g)].map((m) => m[1]);
  expect(ids.length).toBeGreaterThan(0);
  for (const eventId of ids) expect(eventId?.slice(5)).toBe(artistId);
  let artistPage = await get(`/artist/-/${artistId}`);
  while (artistPage.status === 301) artistPage = await get(artistPage.headers.get("location") ?? "");
  const artistHtml = await artistPage.text();
  expect(artistHtml).toContain(`href="/concerts?artist=${artistId}"`);
});

test("an artist filter that names no artist is the not-found page (404), not an empty list", async () => {
  const { t } = serverStrings("en");
  for (const path of ["/concerts?artist=1", "/de/concerts?artist=1&when=all"]) {
    const response = await get(path);
    expect(response.status, path).toBe(404);
    const html = decode(await response.text());
    expect(html, path).toContain('class="error-page"');
    if (!path.startsWith("/de")) expect(html, path).toContain(t("error.notfound"));
  }
});

test("the header links to the concerts", async () => {
  const html = await (await get("/charts")).text();
  expect(html).toMatch(/<a[^>]+href="\/concerts"/);
});

test("QR codes come at 110, 220 and 330 px, as SVG, for known events only", async () => {
  const [id] = await upcomingIds();
  for (const size of [110, 220, 330]) {
    const response = await get(`/services/qr/event/en/GB/${id}/${size}x${size}.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("image/svg+xml");
    expect(await response.text()).toContain(`width="${size}" height="${size}"`);
  }
  expect((await get(`/services/qr/event/en/GB/${id}/111x111.svg`)).status).toBe(404);
  expect((await get("/services/qr/event/en/GB/123/110x110.svg")).status).toBe(404);
});
