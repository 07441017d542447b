import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { chartSizes } from "#rules/content-rules.ts";
import { playlistTracksDocumentSchema } from "#rules/schemas/amapi.ts";
import { type ChartLocations, chartLocationsSchema } from "#rules/schemas/charts.ts";
import { get, metaContent } from "./site";

const site = "https://tunewave.test";

async function html(path: string): Promise<string> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  expect(response.headers.get("content-type"), path).toContain("text/html");
  return response.text();
}

async function locations(): Promise<ChartLocations> {
  const response = await get("/services/charts/locations");
  return v.parse(chartLocationsSchema, await response.json());
}

/** How many songs a chart list holds, as the catalogue says. */
async function listTotal(listid: string): Promise<number> {
  const response = await get(`/services/amapi/v1/catalog/gb/playlists/${listid}/tracks?limit=1`);
  return v.parse(playlistTracksDocumentSchema, await response.json()).meta.total;
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

function jsonLd(text: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(text);
  expect(match, "JSON-LD").not.toBeNull();
  return JSON.parse(match?.[1] ?? "{}") as Record<string, unknown>;
}

const rowPattern = /<li class="track-row chart-row">/g;

/** The addresses a chart page's own page links lead to (its pages of rows), in order. */
function rowPageLinks(text: string): string[] {
  const nav = /<nav class="chart-tabs chart-pages"[^>]*>(.*?)<\/nav>/s.exec(text)?.[1] ?? "";
  return [...nav.matchAll(/href="([^"]+)"/g)].map((match) => (match[1] ?? "").replaceAll("&amp;", "&"));
}

/** A chart's pages of rows, reached as a visitor without JavaScript does: by its links. */
async function allRowPages(path: string): Promise<string[]> {
  const first = await html(path);
  const links = rowPageLinks(first);
  if (links.length === 0) return [first];
  expect(links[0]).toBe(path);
  return [first, ...(await Promise.all(links.slice(1).map((link) => html(link))))];
}

function rowsOf(pages: readonly string[]): string[] {
  return pages.flatMap((text) => text.split('<li class="track-row chart-row">').slice(1));
}

describe("the charts landing", () => {
  test("shows the world's and the visitor's charts, a country picker that is a GET form, and a preview", async () => {
    const all = await locations();
    const gb = all.countries.find((country) => country.id === "GB");
    expect(gb).toBeDefined();
    const text = await html("/charts?co=GB");
    expect(text).toContain("<h1>Music charts</h1>");
    expect(text).toMatch(/<form method="get" action="\/charts"[^>]*class="chart-picker card"/);
    expect(text).toMatch(/<select id="[^"]+" name="country"/);
    expect(text).toContain('<option value="world">World</option>');
    expect(count(text, /<option value=/g)).toBe(all.countries.length + 1);
    // The visitor's country is chosen, with its top 200, discovery, city and genre charts.
    expect(text).toContain('<option value="united-kingdom" selected="">United Kingdom</option>');
    expect(text).toContain('<h2 id="charts-country">United Kingdom</h2>');
    expect(text).toContain('href="/top-200/united-kingdom"');
    expect(text).toContain('href="/discovery/united-kingdom"');
    for (const city of gb?.cities ?? [])
      expect(text).toContain(`href="/top-50/united-kingdom/${city.urlName}"`);
    for (const genre of gb?.genres ?? [])
      expect(text).toContain(`href="/genre/united-kingdom/${genre.urlName}"`);
    for (const genre of all.global.genres) expect(text).toContain(`href="/genre/world/${genre.urlName}"`);
    expect(text).toContain('href="/top-200/world"');
    expect(text).toContain('href="/discovery/world"');
    expect(text).toContain('href="/charts/top-in-my-country"');
    // Five songs of the chosen country's chart.
    expect(count(text, /<li class="track-row">/g)).toBe(Math.min(5, await listTotal(gb?.listid ?? "")));
    expect(metaContent(text, "name", "description")).toMatch(/top 200 songs of the world/);
    expect(text).toContain("<title>Music charts | Tunewave</title>");
  });

  test("the picker's country without a chart type shows that country", async () => {
    const text = await html("/charts?country=germany&co=GB");
    expect(text).toContain('<h2 id="charts-country">Germany</h2>');
    expect(text).toContain('<option value="germany" selected="">Germany</option>');
    expect(text).toContain('href="/discovery/germany"');
  });

  test("the world has no country section", async () => {
    const text = await html("/charts?country=world");
    expect(text).not.toContain('id="charts-country"');
    expect(text).toContain('<option value="world" selected="">World</option>');
  });

  test("in another language, with localized links and names", async () => {
    const text = await html("/de/charts?co=DE");
    expect(text).toContain('<html lang="de-DE"');
    expect(text).toContain("<h1>Musik-Hitlisten</h1>");
    expect(text).toContain('<h2 id="charts-country">Deutschland</h2>');
    expect(text).toContain('href="/de/top-200/germany"');
    expect(text).toMatch(/<form method="get" action="\/de\/charts"/);
  });

  test.each([
    ["an unknown country", "/charts?country=narnia", 404],
    ["an unknown chart type", "/charts?type=top-2000&country=world", 400],
    ["an unknown country with a type", "/charts?type=top-200&country=narnia", 404],
    ["an unknown language", "/xx/charts", 404],
  ])("%s is answered with %s", async (_name, path, status) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(await response.text()).toContain('class="error-page"');
  });

  test.each([
    ["/charts?type=top-200&country=united-kingdom", "/top-200/united-kingdom"],
    ["/charts?type=discovery&country=germany", "/discovery/germany"],
    ["/charts?type=top-50&country=germany&city=berlin", "/top-50/germany/berlin"],
    ["/charts?type=top-50&country=germany&city=london", "/top-50/germany/berlin"],
    ["/charts?type=discovery&country=world", "/discovery/world"],
    ["/de/charts?type=genre&country=world&genre=soundtrack", "/de/genre/world/soundtrack"],
  ])("the picker %s redirects to %s, never cached", async (path, location) => {
    const all = await locations();
    const germany = all.countries.find((country) => country.id === "DE");
    expect(germany?.cities[0]?.urlName).toBe("berlin");
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(location);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe("top in my country", () => {
  test.each([
    ["/charts/top-in-my-country?co=DE", "/top-200/germany"],
    ["/charts/top-in-my-country?co=GB", "/top-200/united-kingdom"],
    ["/charts/top-in-my-country?co=WORLD", "/top-200/world"],
    ["/fr/charts/top-in-my-country?co=FR", "/fr/top-200/france"],
  ])("%s redirects (302, not cacheable) to %s", async (path, location) => {
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(location);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  test("a country without a chart goes to the world's", async () => {
    const all = await locations();
    const charted = new Set(all.countries.map((country) => country.id));
    const { countries } = await import("#rules/countries.ts");
    const uncharted = countries.find((c) => !c.historic && /^[A-Z]{2}$/.test(c.code) && !charted.has(c.code));
    expect(uncharted, "a country without charts in the catalogue").toBeDefined();
    const response = await get(`/charts/top-in-my-country?co=${uncharted?.code}`);
    expect(response.headers.get("location")).toBe("/top-200/world");
  });
});

describe("chart pages", () => {
  type Case = {
    name: string;
    path: (all: ChartLocations) => string;
    listid: (all: ChartLocations) => string;
    size: (all: ChartLocations) => number;
    title: (all: ChartLocations) => string;
  };
  const gb = (all: ChartLocations) => all.countries.find((country) => country.id === "GB");
  const cases: Case[] = [
    {
      name: "world top 200",
      path: () => "/top-200/world",
      listid: (all) => all.global.listid,
      size: () => chartSizes.world,
      title: () => "Top 200 songs: World",
    },
    {
      name: "country top 200",
      path: () => "/top-200/united-kingdom",
      listid: (all) => gb(all)?.listid ?? "",
      size: () => chartSizes.top,
      title: () => "Top 200 songs: United Kingdom",
    },
    {
      name: "world discovery",
      path: () => "/discovery/world",
      listid: (all) => all.global.momentum_listid,
      size: () => chartSizes.discovery,
      title: () => "Discovery: World",
    },
    {
      name: "country discovery",
      path: () => "/discovery/united-kingdom",
      listid: (all) => gb(all)?.momentum_listid ?? "",
      size: () => chartSizes.discovery,
      title: () => "Discovery: United Kingdom",
    },
    {
      name: "city top 50",
      path: (all) => `/top-50/united-kingdom/${gb(all)?.cities[0]?.urlName}`,
      listid: (all) => gb(all)?.cities[0]?.listid ?? "",
      size: () => chartSizes.city,
      title: (all) => `Top 50 songs: ${gb(all)?.cities[0]?.locName}`,
    },
    {
      name: "world genre",
      path: (all) => `/genre/world/${all.global.genres[0]?.urlName}`,
      listid: (all) => all.global.genres[0]?.listid ?? "",
      size: (all) => all.global.genres[0]?.count ?? 0,
      title: (all) => `Top ${all.global.genres[0]?.name} songs: World`,
    },
    {
      name: "country genre",
      path: (all) => `/genre/united-kingdom/${gb(all)?.genres[1]?.urlName}`,
      listid: (all) => gb(all)?.genres[1]?.listid ?? "",
      size: (all) => gb(all)?.genres[1]?.count ?? 0,
      title: (all) => `Top ${gb(all)?.genres[1]?.name} songs: United Kingdom`,
    },
  ];

  test.each(cases)("$name: its songs up to its size, ranked, with links, badges and meta", async (chart) => {
    const all = await locations();
    const path = chart.path(all);
    const text = await html(path);
    const expected = Math.min(chart.size(all), await listTotal(chart.listid(all)));
    expect(expected).toBeGreaterThan(0);
    // 50 rows a page; every row one link away, without JavaScript.
    const onFirst = Math.min(expected, 50);
    expect(count(text, rowPattern)).toBe(onFirst);
    const pages = await allRowPages(path);
    expect(pages).toHaveLength(Math.ceil(expected / 50));
    expect(rowsOf(pages)).toHaveLength(expected);
    expect(pages.at(-1)).toContain(`<span class="track-row__rank">${expected}</span>`);
    expect(text).toContain(`<h1>${chart.title(all)}</h1>`);
    expect(text).toContain(`<title>${chart.title(all)} | Tunewave</title>`);
    // Rank, cover with its size reserved, title link, artist link.
    expect(text).toMatch(
      /<li class="track-row chart-row"><span class="track-row__rank">1<\/span><img class="track-row__cover" src="[^"]+" srcSet="[^"]+ 75w, [^"]+ 300w" sizes="56px" width="56" height="56"/,
    );
    expect(text).toContain(`<span class="track-row__rank">${onFirst}</span>`);
    expect(count(text, /<a class="track-row__title"[^>]* href="\/track\/\d+\/[^"]+"/g)).toBe(onFirst);
    expect(count(text, /<a class="chart-row__artist"[^>]* href="\/artist\/[^"/]+\/\d+"/g)).toBe(onFirst);
    // Meta: Open Graph with the image size, Twitter card, app links, MusicPlaylist JSON-LD.
    expect(metaContent(text, "property", "og:type")).toBe("music.playlist");
    expect(metaContent(text, "property", "og:url")).toBe(`${site}${path}`);
    expect(metaContent(text, "property", "og:image")).toMatch(
      /^https:\/\/tunewave\.test\/media\/art\/.+\/800x800\.jpg$/,
    );
    expect(metaContent(text, "property", "og:image:width")).toBe("800");
    expect(metaContent(text, "property", "og:image:height")).toBe("800");
    expect(metaContent(text, "name", "twitter:card")).toBe("summary_large_image");
    expect(metaContent(text, "property", "al:ios:url")).toBe(`tunewave:/${path}`);
    expect(text).toContain(`<link rel="canonical" href="${site}${path}"/>`);
    const ld = jsonLd(text);
    expect(ld).toMatchObject({
      "@type": "MusicPlaylist",
      name: chart.title(all),
      numTracks: expected,
      url: `${site}${path}`,
    });
    expect((ld.track as unknown[]).length).toBe(onFirst);
    // The chart's own tab is the current one; downloads and share links are there.
    expect(text).toMatch(/<a class="chart-tabs__tab" aria-current="page"[^>]* href="[^"]+"/);
    expect(text).toContain(`href="${path}/download.csv"`);
    expect(text).toContain(`href="${path}/download.json"`);
    expect(text).toContain(`https://twitter.com/intent/tweet?text=`);
    expect(text).toContain(`url=${encodeURIComponent(`${site}${path}`)}`);
    expect(text).toContain("mailto:?subject=");
  });

  test("a new release carries its badge", async () => {
    const rows = rowsOf(await allRowPages("/top-200/world"));
    const response = await get("/services/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=200");
    const songs = v.parse(playlistTracksDocumentSchema, await response.json()).data;
    const now = Date.now();
    songs.forEach((song, index) => {
      const age = (now - Date.parse(`${song.attributes.releaseDate}T00:00:00Z`)) / 86_400_000;
      const row = rows[index] ?? "";
      // Days at the window's edge depend on the hour; they are left out.
      if (age < 89) expect(row, song.attributes.name).toContain('class="badge"');
      if (age > 91) expect(row, song.attributes.name).not.toContain('class="badge"');
    });
  });

  test("the city and genre pickers are GET forms with the chart's choices", async () => {
    const all = await locations();
    const city = await html("/top-50/united-kingdom/london");
    expect(city).toContain('<input type="hidden" name="type" value="top-50"/>');
    expect(city).toMatch(/<select id="[^"]+" name="city"/);
    expect(count(city, /<option value="[^"]+"( selected="")?>/g)).toBe(
      all.countries.length + 1 + (all.countries.find((c) => c.id === "GB")?.cities.length ?? 0),
    );
    expect(city).toContain('<option value="london" selected="">London</option>');
    const genre = await html(`/genre/world/${all.global.genres[0]?.urlName}`);
    expect(genre).toMatch(/<select id="[^"]+" name="genre"/);
    expect(genre).not.toMatch(/name="city"/);
  });

  test("the world has no city tab; a country has all four", async () => {
    const typeTabs = (text: string) =>
      count(
        /<nav class="chart-tabs" aria-label="Chart types">.*?<\/nav>/s.exec(text)?.[0] ?? "",
        /class="chart-tabs__tab"/g,
      );
    expect(typeTabs(await html("/top-200/world"))).toBe(3);
    expect(typeTabs(await html("/top-200/united-kingdom"))).toBe(4);
  });

  test("the include segment adds the chart's artists", async () => {
    const plain = await html("/top-200/world");
    expect(plain).toContain('href="/top-200/world/artists"');
    expect(plain).not.toContain('id="chart-artists"');
    const text = await html("/top-200/world/artists");
    expect(text).toContain('<h2 id="chart-artists">Artists in this chart</h2>');
    const tiles = count(text, /<li class="tile"><a[^>]* href="\/artist\/[^"/]+\/\d+"/g);
    const everyRow = rowsOf(await allRowPages("/top-200/world")).join("");
    const artistLinks = new Set(everyRow.match(/class="chart-row__artist"[^>]* href="[^"]+"/g));
    expect(tiles).toBe(artistLinks.size);
    expect(count(text, rowPattern)).toBe(count(plain, rowPattern));
    const city = await html("/de/top-50/united-kingdom/london/artists");
    expect(city).toContain("Künstler in dieser Hitliste");
  });

  test("a later page of rows is an address of its own: ranks, canonical, alternates, JSON-LD, AMP form", async () => {
    const total = Math.min(chartSizes.world, await listTotal((await locations()).global.listid));
    // The local catalogue's world chart needs a second page for this test to mean anything.
    expect(total).toBeGreaterThan(50);
    const last = Math.min(total, 100);
    const text = await html("/de/top-200/world?page=2");
    expect(count(text, rowPattern)).toBe(last - 50);
    expect(text).toContain('<ol class="track-list chart-list" aria-label="Top-200-Songs: Welt" start="51">');
    expect(text).toMatch(/<li class="track-row chart-row"><span class="track-row__rank">51<\/span>/);
    expect(text).toContain(`<span class="track-row__rank">${last}</span>`);
    expect(text).toContain(`<link rel="canonical" href="${site}/de/top-200/world?page=2"/>`);
    expect(text).toContain(`hrefLang="fr" href="${site}/fr/top-200/world?page=2"`);
    expect(text).toContain(`<link rel="amphtml" href="${site}/amp/de/top-200/world?page=2"/>`);
    expect(metaContent(text, "property", "og:url")).toBe(`${site}/de/top-200/world?page=2`);
    const ld = jsonLd(text) as { numTracks: number; track: { position: number }[] };
    expect(ld.numTracks).toBe(total);
    expect(ld.track.map((track) => track.position)).toEqual(
      Array.from({ length: last - 50 }, (_, i) => 51 + i),
    );
    // The pages' links, in the page's language, this one current.
    expect(text).toContain('<nav class="chart-tabs chart-pages" aria-label="Seiten dieser Hitliste">');
    expect(rowPageLinks(text)).toEqual(
      Array.from(
        { length: Math.ceil(total / 50) },
        (_, i) => `/de/top-200/world${i === 0 ? "" : `?page=${i + 1}`}`,
      ),
    );
    expect(text).toMatch(
      new RegExp(
        `<a class="chart-tabs__tab" aria-current="page"[^>]* href="/de/top-200/world\\?page=2">Titel 51–${last}</a>`,
      ),
    );
    // The first page's own address has no page number.
    expect(await html("/de/top-200/world")).toContain(
      `<link rel="canonical" href="${site}/de/top-200/world"/>`,
    );
  });

  test.each([
    ["/top-200/world?page=1", "/top-200/world"],
    ["/top-200/world?page=1&itsct=x", "/top-200/world?itsct=x"],
    ["/TOP-200/World?page=2", "/top-200/world?page=2"],
  ])("%s moves to %s (301)", async (path, location) => {
    const response = await get(path);
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(location);
  });

  test.each([
    ["/top-200/world?page=abc", 400],
    ["/top-200/world?page=0", 400],
    ["/top-200/world?page=02", 400],
    ["/top-200/world?page=-1", 400],
    ["/top-200/world?page=%3Cb%3E", 400],
    ["/top-200/world?page=5", 404],
    ["/top-200/world?page=9999", 404],
    ["/top-50/united-kingdom/london?page=2", 404],
  ])("%s is the error page (%i), localized, never echoing the value", async (path, status) => {
    const response = await get(path.replace("/top", "/fr/top"));
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(text).toContain('class="error-page"');
    expect(text).toContain('<html lang="fr-FR"');
    expect(text).not.toContain("<b>");
  });

  test("a chart in another language", async () => {
    const text = await html("/ja/top-200/germany");
    expect(text).toContain('<html lang="ja-JP"');
    expect(text).toContain("<h1>トップ200曲:ドイツ</h1>");
    expect(text).toMatch(/href="\/ja\/track\/\d+\//);
    expect(text).toMatch(/href="\/ja\/artist\//);
  });

  test.each([
    ["an unknown country", "/top-200/narnia"],
    ["an unknown country of discovery", "/discovery/narnia"],
    ["an unknown city", "/top-50/united-kingdom/atlantis"],
    ["a city of another country", "/top-50/germany/london"],
    ["a city chart of the world", "/top-50/world/london"],
    ["a city chart without a city", "/top-50/united-kingdom"],
    ["an unknown genre", "/genre/world/polka-metal"],
    ["a genre chart without a genre", "/genre/world"],
    ["an unknown include", "/top-200/world/videos"],
    ["an unknown include after a city", "/top-50/united-kingdom/london/videos"],
    ["too many segments", "/top-200/world/artists/more"],
    ["a chart type alone", "/top-200"],
    ["an unknown language", "/xx/top-200/world"],
    ["an unknown chart under /charts", "/charts/top-2000/world"],
  ])("%s is the not-found page (404)", async (_name, path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('class="error-page"');
  });

  test.each([
    ["/TOP-200/World", "/top-200/world"],
    ["/top-200/world/Artists", "/top-200/world/artists"],
    ["/de/top-50/United-Kingdom/LONDON", "/de/top-50/united-kingdom/london"],
    ["/genre/WORLD/Soundtrack?itsct=x", "/genre/world/soundtrack?itsct=x"],
    ["/charts/top-200/world", "/top-200/world"],
    ["/charts/top-50/united-kingdom/london/artists", "/top-50/united-kingdom/london/artists"],
    ["/de/charts/discovery/germany", "/de/discovery/germany"],
    ["/charts/top-200/world/download.csv", "/top-200/world/download.csv"],
  ])("%s moves to the canonical %s (301)", async (path, location) => {
    const response = await get(path);
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(location);
  });
});

/** RFC 4180 fields of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += char;
  }
  return rows;
}

describe("chart downloads", () => {
  test.each([
    ["/top-200/world", "tunewave-top-200-world"],
    ["/discovery/united-kingdom", "tunewave-discovery-united-kingdom"],
    ["/top-50/united-kingdom/london", "tunewave-top-50-united-kingdom-london"],
    ["/genre/world/soundtrack", "tunewave-genre-world-soundtrack"],
  ])("%s as CSV and JSON, with every row of the chart's pages", async (path, stem) => {
    const page = (await allRowPages(path)).join("");
    const rows = count(page, rowPattern);
    const titles = [...page.matchAll(/<a class="track-row__title"[^>]* href="[^"]+">([^<]*)<\/a>/g)].map(
      (m) => (m[1] ?? "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"'),
    );

    const csv = await get(`${path}/download.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="${stem}.csv"`);
    const table = parseCsv(await csv.text());
    expect(table[0]).toEqual([
      "rank",
      "title",
      "artist",
      "album",
      "release_date",
      "new_release",
      "track_url",
      "artist_url",
    ]);
    expect(table).toHaveLength(rows + 1);
    expect(table.slice(1).map((cells) => cells[0])).toEqual(
      Array.from({ length: rows }, (_, i) => String(i + 1)),
    );
    expect(table.slice(1).map((cells) => cells[1]?.replace(/^'/, ""))).toEqual(titles);
    for (const cells of table.slice(1)) {
      expect(cells).toHaveLength(8);
      expect(cells[6]).toMatch(/^https:\/\/tunewave\.test\/track\/\d+\//);
      expect(cells[7]).toMatch(/^https:\/\/tunewave\.test\/artist\//);
      expect(["true", "false"]).toContain(cells[5]);
    }

    const json = await get(`${path}/download.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(json.headers.get("content-disposition")).toBe(`attachment; filename="${stem}.json"`);
    const body = (await json.json()) as {
      chart: Record<string, unknown>;
      tracks: { rank: number; title: string }[];
    };
    expect(body.chart.url).toBe(`${site}${path}`);
    expect(body.tracks.map((track) => track.title)).toEqual(titles);
    expect(body.tracks.map((track) => track.rank)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
  });

  test("a download in another language has the chart's localized title", async () => {
    const response = await get("/de/top-200/world/download.json");
    const body = (await response.json()) as { chart: { title: string; url: string } };
    expect(body.chart.title).toBe("Top-200-Songs: Welt");
    expect(body.chart.url).toBe(`${site}/de/top-200/world`);
  });

  test.each([
    "/top-200/narnia/download.csv",
    "/top-50/united-kingdom/atlantis/download.json",
    "/genre/world/polka-metal/download.csv",
    "/xx/top-200/world/download.csv",
  ])("%s is not found, as plain text", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });
});
