import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { describeErrors, validateAmp } from "#tests/amp-validator.ts";

// Every AMP page type, in several languages, for real catalogue items, through the official AMP
// validator (offline, see tests/amp-validator.ts), against the running site.

const baseURL = inject("baseURL");
const languages = ["", "/de", "/ja", "/pt-br"] as const;

type PageSize = { page: string; path: string; htmlBytes: number; cssBytes: number; inlineStyleBytes: number };
const sizes: PageSize[] = [];
const paths = new Map<string, string>();

async function text(path: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${baseURL}${path}`, { redirect: "manual" });
  return { status: response.status, html: await response.text() };
}

function firstMatch(html: string, pattern: RegExp, what: string): string {
  const found = pattern.exec(html)?.[1];
  if (!found) throw new Error(`no ${what} found`);
  return found;
}

const bytes = (value: string) => new TextEncoder().encode(value).length;

beforeAll(async () => {
  // Real items, found the way a visitor finds them: from the home page and the song page.
  const home = (await text("/")).html;
  const track = firstMatch(
    home,
    /class="track-row__title"[^>]* href="(\/track\/[^"]+)"/,
    "song on the home page",
  );
  const chartLink = firstMatch(home, /href="((?:\/charts)?\/top-200\/[^"]+)"/, "chart link on the home page");
  // The chart's own address, after any move.
  const chart = new URL((await fetch(`${baseURL}${chartLink}`)).url).pathname;
  const trackPage = (await text(track)).html;
  const artist = firstMatch(trackPage, /href="(\/artist\/[^"]+)"/, "artist link on the song page");
  paths.set("home", "/");
  paths.set("track", track);
  paths.set("artist", artist);
  // Album and playlist pages, from the links on the artist page.
  const artistPage = (await text(artist)).html;
  paths.set("album", firstMatch(artistPage, /href="(\/album\/[^"]+)"/, "album on the artist page"));
  paths.set("playlist", firstMatch(artistPage, /href="(\/playlist\/[^"]+)"/, "playlist on the artist page"));
  paths.set("chart", chart);
  paths.set("chart with artists", `${chart}/artists`);
  paths.set("chart, second page of rows", `${chart}?page=2`);
  paths.set("charts landing", "/charts");
  paths.set("terms", "/terms");
  paths.set("apps", "/apps");
  paths.set("careers", "/careers");
  paths.set("developers", "/developers");
  paths.set("radio spins", "/radio-spins/soundtrack");
  const concerts = (await text("/concerts")).html;
  paths.set("event", firstMatch(concerts, /href="(\/event\/\d+)"/, "concert on the concert list"));
  paths.set("concerts", "/concerts");
  await validateAmp("<!doctype html>"); // loads the validator once, before the timed tests
}, 180_000);

afterAll(() => {
  if (sizes.length === 0) return;
  console.table(sizes);
  writeFileSync("/tmp/amp-sizes.json", `${JSON.stringify(sizes, null, 2)}\n`);
});

const pageTypes = [
  "home",
  "track",
  "artist",
  "album",
  "playlist",
  "chart",
  "chart with artists",
  "chart, second page of rows",
  "charts landing",
  "terms",
  "apps",
  "careers",
  "developers",
  "radio spins",
  "event",
  "concerts",
] as const;

test.each(pageTypes.flatMap((page) => languages.map((lang) => [page, lang] as const)))(
  "the AMP %s page in '%s' passes the AMP validator with no errors",
  async (page, lang) => {
    const path = paths.get(page);
    if (path === undefined) throw new Error(`no path for ${page}`);
    const amp = `/amp${lang}${path === "/" ? "" : path}`;
    const { status, html } = await text(amp);
    expect(status, amp).toBe(200);
    const result = await validateAmp(html);
    expect(result.errors, describeErrors(result)).toEqual([]);
    expect(result.status, amp).toBe("PASS");
    const css = /<style amp-custom>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    const inline = [...html.matchAll(/\sstyle="([^"]*)"/g)].reduce(
      (sum, match) => sum + bytes(match[1] ?? ""),
      0,
    );
    sizes.push({ page, path: amp, htmlBytes: bytes(html), cssBytes: bytes(css), inlineStyleBytes: inline });
  },
);

test.each(languages)(
  "the AMP chart in '%s': every page of rows at most 40 KB, every song on one of them",
  async (lang) => {
    const chart = paths.get("chart") ?? "";
    const first = (await text(`/amp${lang}${chart}`)).html;
    const nav = /<nav class="chart-tabs chart-pages"[^>]*>(.*?)<\/nav>/s.exec(first)?.[1] ?? "";
    const links = [...nav.matchAll(/href="([^"]+)"/g)].map((match) =>
      (match[1] ?? "").replaceAll("&amp;", "&"),
    );
    // The local catalogue's chart has more than one page of rows: the links lead to the React pages.
    expect(links.length).toBeGreaterThan(1);
    expect(links[0]).toBe(`${lang}${chart}`);
    const ranks: string[] = [];
    for (const link of links) {
      const { status, html } = await text(`/amp${link}`);
      expect(status, link).toBe(200);
      expect(bytes(html), link).toBeLessThanOrEqual(40_000);
      ranks.push(
        ...[...html.matchAll(/<span class="track-row__rank">([^<]+)<\/span>/g)].map(
          (match) => match[1] ?? "",
        ),
      );
    }
    expect(ranks).toEqual(Array.from({ length: ranks.length }, (_, i) => String(i + 1)));
    expect(ranks.length).toBeGreaterThan(50);
  },
);

test.each(languages)("the AMP 404 page in '%s' passes the AMP validator with no errors", async (lang) => {
  const amp = `/amp${lang}/no-such-page`;
  const { status, html } = await text(amp);
  expect(status).toBe(404);
  const result = await validateAmp(html);
  expect(result.errors, describeErrors(result)).toEqual([]);
  expect(result.status).toBe("PASS");
  const css = /<style amp-custom>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
  sizes.push({ page: "404", path: amp, htmlBytes: bytes(html), cssBytes: bytes(css), inlineStyleBytes: 0 });
});
