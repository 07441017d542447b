import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import * as v from "valibot";
import { afterEach, expect, test, vi } from "vitest";
import { chartPagePaths, resolveChart } from "#app/charts/chart-address.server.ts";
import { sitemapLimits } from "#app/site-files/sitemaps.ts";
import { createOrigin } from "#origin/index.ts";
import { languages } from "#rules/languages.ts";
import type { ChartType } from "#rules/path.ts";
import { type ChartLocations, chartLocationsSchema } from "#rules/schemas/charts.ts";
import worker from "./built-worker";

// The sitemaps as a crawler reads them: the index, every file it lists, and every page they name.

const site = "https://tunewave.test";
const crawler = { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };
const hreflangs = [...languages.map((language) => language.hreflang), "x-default"];
/** Reading 90 MB of sitemaps and rendering a few hundred pages takes a while in workerd. */
const timeout = 300_000;

afterEach(() => {
  vi.restoreAllMocks();
});

type Entry = { loc: string; lastmod: string | undefined; alternates: [string, string][] };
type SitemapFile = {
  loc: string;
  lastmod: string | undefined;
  type: string;
  bytes: number;
  entries: Entry[];
};

function get(url: string): Promise<Response> {
  return SELF.fetch(url, { redirect: "manual", headers: crawler });
}

function decode(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

/** The sitemap index's files: a small parser for the format this site writes (one element a line). */
function parseIndex(xml: string): { loc: string; lastmod: string | undefined }[] {
  expect(xml).toMatch(
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/,
  );
  expect(xml.endsWith("</sitemapindex>\n")).toBe(true);
  return [...xml.matchAll(/<sitemap><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/sitemap>/g)].map(
    (match) => ({ loc: decode(match[1] ?? ""), lastmod: match[2] }),
  );
}

/** One alternates list per page, shared by its 22 URLs: the files hold tens of thousands of URLs. */
const alternatesByText = new Map<string, [string, string][]>();

function parseAlternates(text: string): [string, string][] {
  let alternates = alternatesByText.get(text);
  if (!alternates) {
    alternates = [...text.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
      (link) => [link[1] ?? "", decode(link[2] ?? "")],
    );
    expect(alternates.length).toBe(text.split("<xhtml:link ").length - 1);
    alternatesByText.set(text, alternates);
  }
  return alternates;
}

function parseUrlset(xml: string): Entry[] {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset ')).toBe(true);
  expect(xml).toContain('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
  expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
  expect(xml.endsWith("</urlset>\n")).toBe(true);
  const entries: Entry[] = [];
  for (const match of xml.matchAll(
    /<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?((?:<xhtml:link [^>]+\/>)+)<\/url>\n/g,
  )) {
    entries.push({
      loc: decode(match[1] ?? ""),
      lastmod: match[2],
      alternates: parseAlternates(match[3] ?? ""),
    });
  }
  // Every <url> had that shape: nothing was skipped.
  expect(xml.split("<url>").length - 1).toBe(entries.length);
  return entries;
}

let loaded: Promise<SitemapFile[]> | undefined;

/** Every file of the index, fetched and parsed once for this test file (read-only). */
function sitemapFiles(): Promise<SitemapFile[]> {
  loaded ??= (async () => {
    const index = await get(`${site}/sitemap.xml`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(index.headers.get("cache-control")).toMatch(/^public, .*s-maxage=\d+/);
    expect(index.headers.get("set-cookie")).toBeNull();
    const files: SitemapFile[] = [];
    for (const reference of parseIndex(await index.text())) {
      const name = /^https:\/\/tunewave\.test\/sitemaps\/([a-z]+)-(\d+)\.xml$/.exec(reference.loc);
      expect(name, reference.loc).not.toBeNull();
      const response = await get(reference.loc);
      expect(response.status, reference.loc).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
      const body = new Uint8Array(await response.arrayBuffer());
      const entries = parseUrlset(new TextDecoder().decode(body));
      files.push({ ...reference, type: name?.[1] ?? "", bytes: body.length, entries });
    }
    return files;
  })();
  return loaded;
}

/** The path of a URL without its language prefix: the page it is a version of. */
function pageOf(entry: Entry): string {
  return entry.alternates.find(([hreflang]) => hreflang === "x-default")?.[1] ?? "";
}

async function chartLocations(): Promise<ChartLocations> {
  return v.parse(chartLocationsSchema, await (await get(`${site}/services/charts/locations`)).json());
}

async function count(table: "tracks" | "artists" | "albums" | "playlists"): Promise<number> {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}

async function inBatches<T>(
  items: readonly T[],
  size: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < items.length; start += size)
    await Promise.all(items.slice(start, start + size).map(run));
}

test(
  "the index lists files of each page type, numbered from 1, each within the protocol's limits",
  async () => {
    const files = await sitemapFiles();
    const types = [...new Set(files.map((file) => file.type))];
    expect(types).toEqual([
      "pages",
      "charts",
      "radio",
      "concerts",
      "tracks",
      "artists",
      "albums",
      "playlists",
    ]);
    for (const type of types) {
      const numbers = files
        .filter((file) => file.type === type)
        .map((file) => file.loc.replace(/.*-(\d+)\.xml$/, "$1"));
      expect(numbers, type).toEqual(numbers.map((_, index) => String(index + 1)));
    }
    for (const file of files) {
      expect(file.entries.length, file.loc).toBeGreaterThan(0);
      expect(file.entries.length, file.loc).toBeLessThanOrEqual(sitemapLimits.maxUrls);
      expect(file.bytes, file.loc).toBeLessThanOrEqual(sitemapLimits.maxBytes);
      const lastmods = file.entries.flatMap((entry) => (entry.lastmod ? [entry.lastmod] : [])).sort();
      expect(file.lastmod, file.loc).toBe(lastmods.at(-1));
    }
    // Every chart page in 22 languages is more than 50 MB: the charts are split, each file but the
    // last filled up to the byte limit (the next URL would not have fitted).
    const charts = files.filter((file) => file.type === "charts");
    expect(charts.length).toBeGreaterThan(1);
    for (const file of charts.slice(0, -1))
      expect(file.bytes).toBeGreaterThan(sitemapLimits.maxBytes - 5_000);
    const past = await get(`${site}/sitemaps/charts-${charts.length + 1}.xml`);
    expect(past.status).toBe(404);
    expect((await get(`${site}/sitemaps/concerts-${files.length + 1}.xml`)).status).toBe(404);
    expect((await get(`${site}/sitemaps/videos-1.xml`)).status).toBe(404);
  },
  timeout,
);

test(
  "every URL lists every interface language and x-default, and each page is listed once in each language",
  async () => {
    const entries = (await sitemapFiles()).flatMap((file) => file.entries);
    const locs = new Set<string>();
    const byPage = new Map<string, Entry[]>();
    for (const entry of entries) {
      expect(
        entry.alternates.map(([hreflang]) => hreflang),
        entry.loc,
      ).toEqual(hreflangs);
      const alternates = new Map(entry.alternates);
      expect(alternates.get("x-default"), entry.loc).toBe(alternates.get("en"));
      expect([...alternates.values()], entry.loc).toContain(entry.loc);
      expect(locs.has(entry.loc), entry.loc).toBe(false);
      locs.add(entry.loc);
      byPage.set(pageOf(entry), [...(byPage.get(pageOf(entry)) ?? []), entry]);
    }
    for (const [page, versions] of byPage) {
      const first = versions[0];
      expect(versions.map((version) => version.loc).sort(), page).toEqual(
        (first?.alternates ?? [])
          .filter(([hreflang]) => hreflang !== "x-default")
          .map(([, href]) => href)
          .sort(),
      );
      for (const version of versions) expect(version.alternates, page).toEqual(first?.alternates);
    }
  },
  timeout,
);

test(
  "the sitemaps hold every track, artist and chart of the catalogue, and only pages meant to be found",
  async () => {
    const files = await sitemapFiles();
    const pagesOf = (type: string) =>
      new Set(files.filter((file) => file.type === type).flatMap((file) => file.entries.map(pageOf)));
    const locations = v.parse(
      chartLocationsSchema,
      await (await get(`${site}/services/charts/locations`)).json(),
    );
    expect(pagesOf("tracks").size).toBe(await count("tracks"));
    expect(pagesOf("artists").size).toBe(await count("artists"));
    expect(pagesOf("albums").size).toBe(await count("albums"));
    expect(pagesOf("playlists").size).toBe(await count("playlists"));
    // The world's charts are the ones a country has but its cities: top 200, discovery, genres.
    expect(pagesOf("charts")).toContain(`${site}/discovery/world`);
    expect([...pagesOf("charts")].sort()).toEqual(
      chartPagePaths(locations)
        .map((path) => `${site}${path}`)
        .sort(),
    );
    expect([...pagesOf("pages")]).toEqual(
      [
        "/",
        "/charts",
        "/concerts",
        "/identify",
        "/apps",
        "/company",
        "/careers",
        "/developers",
        "/terms",
        "/privacy",
        "/privacy/policy",
        "/privacy/data-categories",
        "/privacy/transfer-notice",
      ].map((path) => `${site}${path}`),
    );
    expect([...pagesOf("radio")].sort()).toEqual(
      locations.global.genres
        .filter((genre) => genre.count > 0)
        .map((genre) => `${site}/radio-spins/${genre.urlName}`)
        .sort(),
    );
    // Every upcoming concert, and only concerts.
    const concerts = [...pagesOf("concerts")];
    expect(concerts.length).toBeGreaterThan(0);
    for (const page of concerts) expect(page).toMatch(/^https:\/\/tunewave\.test\/event\/\d+$/);
    const upcoming = await (
      await get(`${site}/services/event/v1/GB/shazam-events?l=en&filter%5BisFuture%5D=true`)
    ).json<{ data: unknown[]; next?: string }>();
    expect(concerts.length).toBeGreaterThanOrEqual(upcoming.data.length);
    for (const entry of files.flatMap((file) => file.entries)) {
      expect(entry.loc).not.toMatch(/\/(amp|search|login|logout|secure|dev|share|validate-email)(\/|$|\?)/);
      expect(entry.loc).not.toContain("?");
    }
    // Catalogue pages are dated by the catalogue; the others have no date to give.
    const datedTypes = ["tracks", "artists", "albums", "playlists"];
    for (const file of files) {
      const dated = file.entries.filter((entry) => entry.lastmod !== undefined).length;
      expect(dated, file.loc).toBe(datedTypes.includes(file.type) ? file.entries.length : 0);
    }
  },
  timeout,
);

/**
 * The pages to render: the home page in every language; every other page once, each in a language
 * that moves on from page to page, so every language is used many times; and a sample of chart
 * pages (the world's, and every chart of every 20th country). Rendering all 1,600 chart pages takes
 * workerd over ten minutes; the others are checked against the locations below.
 */
function pagesToRender(entries: readonly Entry[], locations: ChartLocations): Entry[] {
  const sampledCountries = new Set(
    locations.countries.filter((_, index) => index % 20 === 0).map((country) => country.urlName),
  );
  sampledCountries.add(locations.global.urlName);
  const versions = new Map<string, Entry[]>();
  for (const entry of entries) versions.set(pageOf(entry), [...(versions.get(pageOf(entry)) ?? []), entry]);
  return [...versions].flatMap(([page, all], index) => {
    const path = new URL(page).pathname;
    const chart = /^\/(top-200|top-50|discovery|genre)\/([^/]+)/.exec(path);
    if (chart) return sampledCountries.has(chart[2] ?? "") ? [all[index % all.length] as Entry] : [];
    return path === "/" ? all : [all[index % all.length] as Entry];
  });
}

test(
  "pages answer 200 with the listed URL as their canonical, the listed alternates, and no noindex",
  async () => {
    const entries = (await sitemapFiles()).flatMap((file) => file.entries);
    const checked = pagesToRender(entries, await chartLocations());
    expect(new Set(checked.map((entry) => new URL(entry.loc).pathname.split("/")[1])).size).toBeGreaterThan(
      20,
    );
    await inBatches(checked, 4, async (entry) => {
      const response = await get(entry.loc);
      expect(response.status, entry.loc).toBe(200);
      const html = await response.text();
      const head = html.slice(0, html.indexOf("</head>"));
      expect(/<link rel="canonical" href="([^"]+)"/.exec(head)?.[1], entry.loc).toBe(entry.loc);
      expect(head, entry.loc).not.toMatch(/<meta name="robots" content="[^"]*noindex/);
      const alternates = [...head.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"/g)].map(
        (match) => [match[1], decode(match[2] ?? "")],
      );
      expect(alternates, entry.loc).toEqual(entry.alternates);
    });
  },
  timeout,
);

test(
  "every chart URL is a chart whose canonical address is that URL",
  async () => {
    const locations = await chartLocations();
    const charts = (await sitemapFiles()).filter((file) => file.type === "charts");
    const paths = new Set(
      charts.flatMap((file) => file.entries.map((entry) => new URL(pageOf(entry)).pathname)),
    );
    for (const path of paths) {
      const [, type, country, cityOrGenre] = path.split("/");
      const chart = resolveChart(locations, {
        type: type as ChartType,
        country: country ?? "",
        cityOrGenre,
        include: undefined,
      });
      expect(chart.path).toBe(path);
      expect(chart.size, path).toBeGreaterThan(0);
    }
  },
  timeout,
);

test("with SERVICES_ORIGIN set the sitemaps come from the remote origin's catalogue", async () => {
  const remote = createOrigin();
  const seen: string[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).host !== "origin-two.example") return realFetch(input, init);
    seen.push(new URL(request.url).pathname);
    return remote.fetch(request, env);
  });
  const remoteEnv = { ...env, SERVICES_ORIGIN: "https://origin-two.example" };
  const fetchFromRemote = async (path: string) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(`${site}${path}`, { headers: crawler }), remoteEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
  const tracks = await fetchFromRemote("/sitemaps/tracks-1.xml");
  expect(tracks.status).toBe(200);
  expect(parseUrlset(await tracks.text())).toHaveLength((await count("tracks")) * languages.length);
  const artists = await fetchFromRemote("/sitemaps/artists-1.xml");
  expect(parseUrlset(await artists.text())).toHaveLength((await count("artists")) * languages.length);
  expect(seen).toContain("/services/catalogue/v1/tracks");
  expect(seen).toContain("/services/catalogue/v1/artists");
});

test("a sitemap the catalogue cannot answer is not served in part: 503, not stored, asked again later", async () => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("down", { status: 500 }));
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${site}/sitemap.xml`, { headers: crawler }),
    { ...env, SERVICES_ORIGIN: "https://origin-down.example" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(503);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("retry-after")).toBe("3600");
});
