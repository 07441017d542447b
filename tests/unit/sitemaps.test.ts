import { expect, test } from "vitest";
import {
  escapeXml,
  localizedSitemapUrls,
  newestLastmod,
  type SitemapUrl,
  sitemapIndexXml,
  sitemapLimits,
  sitemapXml,
  splitSitemap,
} from "#app/site-files/sitemaps.ts";
import { languages } from "#rules/languages.ts";

const origin = "https://tunewave.test";
const sitemapText = (urls: readonly SitemapUrl[]) => [...sitemapXml(urls)].join("");
const bytes = (text: string) => new TextEncoder().encode(text).length;

function pages(count: number): SitemapUrl[] {
  return Array.from({ length: count }, (_, index) =>
    localizedSitemapUrls(origin, { path: `/track/${index + 1}/song-${index + 1}`, lastmod: "2024-05-01" }),
  ).flat();
}

function locsOf(xml: string): string[] {
  return [...xml.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? "");
}

test("the protocol's limits: 50,000 URLs and 50 MB a file", () => {
  expect(sitemapLimits).toEqual({ maxUrls: 50_000, maxBytes: 50 * 1024 * 1024 });
});

test("a page is one <url> per interface language, each listing every language and x-default", () => {
  const urls = localizedSitemapUrls(origin, { path: "/company" });
  expect(urls.map((url) => url.loc)).toEqual(
    languages.map((language) =>
      language.key === "en" ? `${origin}/company` : `${origin}/${language.key}/company`,
    ),
  );
  for (const url of urls) {
    expect(url.alternates.map((alternate) => alternate.hreflang)).toEqual([
      ...languages.map((language) => language.hreflang),
      "x-default",
    ]);
    expect(url.alternates.some((alternate) => alternate.href === url.loc)).toBe(true);
  }
  expect(
    localizedSitemapUrls(origin, { path: "/" })
      .map((url) => url.loc)
      .slice(0, 4),
  ).toEqual([`${origin}/cs`, `${origin}/de`, `${origin}/el`, `${origin}/`]);
});

test("a sitemap is the protocol's XML, with alternates and lastmod", () => {
  const xml = sitemapText(
    localizedSitemapUrls(origin, { path: "/track/1/a", lastmod: "2024-05-01" }).slice(0, 1),
  );
  expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
  expect(xml).toContain('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
  expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
  expect(xml).toContain(
    `<url><loc>${origin}/cs/track/1/a</loc><lastmod>2024-05-01</lastmod><xhtml:link rel="alternate" hreflang="cs" href="${origin}/cs/track/1/a"/>`,
  );
  expect(xml).toContain(
    `<xhtml:link rel="alternate" hreflang="x-default" href="${origin}/track/1/a"/></url>`,
  );
  expect(xml.endsWith("</urlset>\n")).toBe(true);
  expect(sitemapText(localizedSitemapUrls(origin, { path: "/charts" }))).not.toContain("<lastmod>");
});

test("every URL is escaped as XML, in <loc> and in the alternates' attributes", () => {
  expect(escapeXml(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
  const xml = sitemapText([
    {
      loc: "https://tunewave.test/search?q=a&b=<c>",
      lastmod: undefined,
      alternates: [{ hreflang: "x-default", href: `https://tunewave.test/it's?a="1"&b=2` }],
    },
  ]);
  expect(xml).toContain("<loc>https://tunewave.test/search?q=a&amp;b=&lt;c&gt;</loc>");
  expect(xml).toContain('href="https://tunewave.test/it&apos;s?a=&quot;1&quot;&amp;b=2"');
  expect(xml).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
});

test("a file is split at the URL limit", () => {
  const urls = pages(3); // 66 URLs
  const files = splitSitemap(urls, { maxUrls: 25, maxBytes: sitemapLimits.maxBytes });
  expect(files.map((file) => file.length)).toEqual([25, 25, 16]);
  expect(files.flat()).toEqual(urls);
});

test("a file is split before it passes the byte limit, XML frame included", () => {
  const urls = pages(4);
  const oneFile = bytes(sitemapText(urls));
  const maxBytes = Math.ceil(oneFile / 3);
  const files = splitSitemap(urls, { maxUrls: sitemapLimits.maxUrls, maxBytes });
  expect(files.length).toBeGreaterThanOrEqual(3);
  expect(files.flat()).toEqual(urls);
  for (const file of files) {
    const size = bytes(sitemapText(file));
    expect(size).toBeLessThanOrEqual(maxBytes);
    // Full: the next URL would not have fitted.
    const next = urls[urls.indexOf(file.at(-1) as SitemapUrl) + 1];
    if (next) expect(bytes(sitemapText([...file, next]))).toBeGreaterThan(maxBytes);
  }
});

test("a file exactly at the byte limit is kept whole", () => {
  const urls = pages(1);
  const exact = bytes(sitemapText(urls));
  expect(splitSitemap(urls, { maxUrls: 50_000, maxBytes: exact })).toHaveLength(1);
  expect(splitSitemap(urls, { maxUrls: 50_000, maxBytes: exact - 1 })).toHaveLength(2);
});

test("bytes are counted in UTF-8, not in characters", () => {
  const url: SitemapUrl = {
    loc: "https://tunewave.test/ü",
    alternates: [{ hreflang: "x-default", href: "https://tunewave.test/日本" }],
  };
  const exact = bytes(sitemapText([url, url]));
  expect(splitSitemap([url, url], { maxUrls: 10, maxBytes: exact })).toHaveLength(1);
  expect(splitSitemap([url, url], { maxUrls: 10, maxBytes: exact - 1 })).toHaveLength(2);
});

test("a URL larger than a whole file is an error, not an oversized file", () => {
  const [url] = pages(1);
  expect(() => splitSitemap(url ? [url] : [], { maxUrls: 10, maxBytes: 500 })).toThrow(/does not fit/);
});

test("no URLs make no file", () => {
  expect(splitSitemap([])).toEqual([]);
});

test("the index lists each file with its newest lastmod", () => {
  const xml = sitemapIndexXml([
    { loc: `${origin}/sitemaps/pages-1.xml`, lastmod: undefined },
    { loc: `${origin}/sitemaps/tracks-1.xml`, lastmod: "2024-05-01" },
  ]);
  expect(xml).toBe(
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc>${origin}/sitemaps/pages-1.xml</loc></sitemap>\n<sitemap><loc>${origin}/sitemaps/tracks-1.xml</loc><lastmod>2024-05-01</lastmod></sitemap>\n</sitemapindex>\n`,
  );
  expect(
    newestLastmod([{ lastmod: "2023-01-12" }, {}, { lastmod: "2024-05-01" }, { lastmod: "2023-12-31" }]),
  ).toBe("2024-05-01");
  expect(newestLastmod([{}])).toBeUndefined();
  expect(() =>
    sitemapIndexXml([{ loc: "a" }, { loc: "b" }, { loc: "c" }], { maxUrls: 2, maxBytes: 1_000_000 }),
  ).toThrow();
});

test("the split files, written, hold every URL once and in order", () => {
  const urls = pages(5);
  const files = splitSitemap(urls, { maxUrls: 30, maxBytes: 40_000 });
  expect(files.flatMap((file) => locsOf(sitemapText(file)))).toEqual(urls.map((url) => url.loc));
});
