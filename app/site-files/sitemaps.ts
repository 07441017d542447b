import { languages } from "#rules/languages.ts";
import { alternateLinks, canonicalUrl } from "#rules/path.ts";

/**
 * Sitemaps (https://www.sitemaps.org/protocol.html) with the language versions of every page
 * (https://developers.google.com/search/docs/specialty/international/localized-versions#sitemap):
 * pure text building, no loading. Each language version of a page is a `<url>` of its own, and
 * every one of them lists all versions (`xhtml:link rel="alternate"`, x-default included), the same
 * list the page's own `<link rel="alternate">` tags give (rules/path.ts `alternateLinks`).
 */

/** The protocol's limits of one sitemap file: 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed. */
export const sitemapLimits = { maxUrls: 50_000, maxBytes: 52_428_800 } as const;

export type SitemapLimits = { maxUrls: number; maxBytes: number };

export type Alternate = { hreflang: string; href: string };

/** One URL of a sitemap. */
export type SitemapUrl = {
  /** Absolute URL of the page in one language: its canonical URL. */
  loc: string;
  /** W3C date (or date-time) the page last changed; absent when the data has none. */
  lastmod?: string | undefined;
  /** Every language version of the page, and x-default. */
  alternates: readonly Alternate[];
};

/** A page of the site, in no language: its path without prefix ("/track/1/alias") and its date. */
export type SitemapPage = { path: string; lastmod?: string | undefined };

/** A sitemap file as the index lists it. */
export type SitemapReference = { loc: string; lastmod?: string | undefined };

const xmlDeclaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
const urlsetOpen = `${xmlDeclaration}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n`;
const urlsetClose = "</urlset>\n";
const indexOpen = `${xmlDeclaration}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
const indexClose = "</sitemapindex>\n";

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/** Text for XML content and attribute values: the five characters XML reserves, escaped. */
export function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

/**
 * The 22 `<url>`s of a page, one per interface language, all with the same alternates. The
 * alternates list is shared, so its XML is written (and measured) once per page, not per language.
 */
export function localizedSitemapUrls(origin: string, page: SitemapPage): SitemapUrl[] {
  const alternates = alternateLinks(origin, page.path);
  return languages.map((language) => ({
    loc: canonicalUrl(origin, language.key, page.path),
    lastmod: page.lastmod,
    alternates,
  }));
}

type Written = { xml: string; bytes: number };

/** The alternates' XML of each shared alternates list (see `localizedSitemapUrls`). */
const alternatesXml = new WeakMap<readonly Alternate[], Written>();

function writtenAlternates(alternates: readonly Alternate[]): Written {
  let written = alternatesXml.get(alternates);
  if (!written) {
    const xml = alternates
      .map(
        (alternate) =>
          `<xhtml:link rel="alternate" hreflang="${escapeXml(alternate.hreflang)}" href="${escapeXml(alternate.href)}"/>`,
      )
      .join("");
    written = { xml, bytes: byteLength(xml) };
    alternatesXml.set(alternates, written);
  }
  return written;
}

function urlHead(url: SitemapUrl): string {
  return `<url><loc>${escapeXml(url.loc)}</loc>${url.lastmod ? `<lastmod>${escapeXml(url.lastmod)}</lastmod>` : ""}`;
}

const urlClose = "</url>\n";

function urlBytes(url: SitemapUrl): number {
  return byteLength(urlHead(url)) + writtenAlternates(url.alternates).bytes + urlClose.length;
}

/**
 * The URLs split into sitemap files, in order: a file is closed before it would pass either limit
 * (its URL count, or its size in bytes with the XML around the URLs). A URL that alone is larger
 * than a file may be is an error, not a file of its own over the limit.
 */
export function splitSitemap(
  urls: Iterable<SitemapUrl>,
  limits: SitemapLimits = sitemapLimits,
): SitemapUrl[][] {
  const frameBytes = byteLength(urlsetOpen) + byteLength(urlsetClose);
  const files: SitemapUrl[][] = [];
  let file: SitemapUrl[] = [];
  let bytes = frameBytes;
  for (const url of urls) {
    const size = urlBytes(url);
    if (frameBytes + size > limits.maxBytes)
      throw new Error(`a sitemap URL of ${size} bytes does not fit in ${limits.maxBytes} bytes: ${url.loc}`);
    if (file.length === limits.maxUrls || bytes + size > limits.maxBytes) {
      files.push(file);
      file = [];
      bytes = frameBytes;
    }
    file.push(url);
    bytes += size;
  }
  if (file.length > 0) files.push(file);
  return files;
}

/**
 * A sitemap file, as pieces of text to stream: a file may be tens of megabytes, more than an
 * isolate should hold as one string next to its encoded copy.
 */
export function* sitemapXml(urls: readonly SitemapUrl[]): Generator<string> {
  yield urlsetOpen;
  for (const url of urls) yield `${urlHead(url)}${writtenAlternates(url.alternates).xml}${urlClose}`;
  yield urlsetClose;
}

/** The newest `lastmod` of some URLs; dates and date-times of one format compare as text. */
export function newestLastmod(urls: readonly { lastmod?: string | undefined }[]): string | undefined {
  let newest: string | undefined;
  for (const url of urls)
    if (url.lastmod && (newest === undefined || url.lastmod > newest)) newest = url.lastmod;
  return newest;
}

/** The sitemap index: one `<sitemap>` per file. The protocol's limits hold for it too. */
export function sitemapIndexXml(
  sitemaps: readonly SitemapReference[],
  limits: SitemapLimits = sitemapLimits,
): string {
  if (sitemaps.length > limits.maxUrls)
    throw new Error(`${sitemaps.length} sitemaps are more than one index may list (${limits.maxUrls})`);
  const entries = sitemaps.map(
    (sitemap) =>
      `<sitemap><loc>${escapeXml(sitemap.loc)}</loc>${sitemap.lastmod ? `<lastmod>${escapeXml(sitemap.lastmod)}</lastmod>` : ""}</sitemap>\n`,
  );
  const xml = `${indexOpen}${entries.join("")}${indexClose}`;
  if (byteLength(xml) > limits.maxBytes)
    throw new Error(`the sitemap index is larger than ${limits.maxBytes} bytes`);
  return xml;
}
