import { describe, expect, test } from "vitest";
import {
  addressQuery,
  alternateLinks,
  ampPath,
  canonicalUrl,
  chartRowsPageOf,
  languagePickerHref,
  localizedPath,
  pageTypes,
  parsePath,
} from "#rules/path.ts";

type Expected = Partial<ReturnType<typeof parsePath>>;

const cases: [pathname: string, expected: Expected][] = [
  ["/", { langKey: undefined, isAmp: false, pageType: "home", segments: ["home"], canonicalPath: "/home" }],
  ["", { pageType: "home", canonicalPath: "/home" }],
  ["/home", { langKey: undefined, pageType: "home", canonicalPath: "/home" }],
  ["/de", { langKey: "de", pageType: "home", canonicalPath: "/home", nonCanonicalPrefix: undefined }],
  ["/de/", { langKey: "de", pageType: "home", canonicalPath: "/home" }],
  [
    "/pt-br/track/40333609/alias",
    { langKey: "pt-br", pageType: "track", segments: ["track", "40333609", "alias"] },
  ],
  ["/pt-br/track/40333609/alias", { canonicalPath: "/track/40333609/alias" }],
  ["/track/40333609", { langKey: undefined, pageType: "track", canonicalPath: "/track/40333609" }],
  ["/track/40333609/", { canonicalPath: "/track/40333609" }],
  ["//track//1", { canonicalPath: "/track/1", segments: ["track", "1"] }],
  ["/amp/track/1", { isAmp: true, langKey: undefined, pageType: "track", canonicalPath: "/track/1" }],
  ["/amp/de/track/1", { isAmp: true, langKey: "de", canonicalPath: "/track/1" }],
  ["/de/amp/track/1", { isAmp: true, langKey: "de", canonicalPath: "/track/1" }],
  ["/amp", { isAmp: true, pageType: "home", canonicalPath: "/home" }],
  ["/amp/zh-tw", { isAmp: true, langKey: "zh-tw", pageType: "home" }],
  ["/AMP/track/1", { isAmp: true, pageType: "track" }],
  ["/amp/amp/track/1", { isAmp: true, pageType: "unknown", canonicalPath: "/amp/track/1" }],
  ["/de/fr/track/1", { langKey: "de", pageType: "unknown", canonicalPath: "/fr/track/1" }],
  ["/gb/charts", { langKey: "gb", pageType: "chartsview", chartType: undefined }],
  ["/en/charts", { langKey: "en", nonCanonicalPrefix: "en", pageType: "chartsview" }],
  ["/en-gb/charts", { langKey: "gb", nonCanonicalPrefix: "en-gb" }],
  ["/DE/charts", { langKey: "de", nonCanonicalPrefix: "DE" }],
  ["/zh-hk/charts", { langKey: "zh-tw", nonCanonicalPrefix: "zh-hk" }],
  ["/zh-hant/charts", { langKey: "zh-tw", nonCanonicalPrefix: "zh-hant" }],
  ["/zh-mo/search", { langKey: "zh-tw", pageType: "search" }],
  ["/de-de/search", { langKey: "de", nonCanonicalPrefix: "de-de" }],
  ["/de-at/search", { langKey: undefined, pageType: "unknown" }],
  ["/xx/search", { langKey: undefined, pageType: "unknown", canonicalPath: "/xx/search" }],
  ["/id/track/1", { langKey: "id", pageType: "track" }],
  ["/top-200/united-kingdom", { pageType: "chartsview", chartType: "top-200" }],
  ["/de/top-50/germany/berlin", { langKey: "de", pageType: "chartsview", chartType: "top-50" }],
  ["/discovery/world", { pageType: "chartsview", chartType: "discovery" }],
  ["/genre/world/pop", { pageType: "chartsview", chartType: "genre" }],
  ["/artist/-/1234", { pageType: "artist", segments: ["artist", "-", "1234"] }],
  ["/myshazam", { pageType: "myshazam" }],
  ["/secure/myshazam", { pageType: "myshazam", isSecure: true, canonicalPath: "/myshazam" }],
  ["/de/secure/myshazam", { langKey: "de", pageType: "myshazam", isSecure: true }],
  ["/apps", { pageType: "apps" }],
  ["/company", { pageType: "company" }],
  ["/verify", { pageType: "verify" }],
  ["/careers", { pageType: "careers" }],
  ["/terms", { pageType: "terms" }],
  ["/privacy/delete", { pageType: "privacy", segments: ["privacy", "delete"] }],
  ["/survey", { pageType: "survey" }],
  ["/event/abc-123", { pageType: "event" }],
  ["/campaign/summer", { pageType: "campaign", segments: ["campaign", "summer"] }],
  ["/share", { pageType: "share" }],
  ["/share/track", { pageType: "share" }],
  ["/error/notfound", { pageType: "error", errorType: "notfound" }],
  ["/error/timeout", { pageType: "error", errorType: "timeout" }],
  ["/error", { pageType: "error", errorType: "notfound" }],
  ["/error/NETWORK", { pageType: "error", errorType: "network" }],
  ["/error/%3Cscript%3E", { pageType: "error", errorType: "catchall" }],
  ["/error/constructor", { pageType: "error", errorType: "catchall" }],
  ["/Track/1", { pageType: "track", canonicalPath: "/Track/1" }],
  ["/constructor", { pageType: "unknown" }],
  ["/__proto__/x", { pageType: "unknown" }],
  ["/track/caf%C3%A9", { segments: ["track", "café"], canonicalPath: "/track/caf%C3%A9" }],
  ["/track/%E0%A4%A", { segments: ["track", "%E0%A4%A"] }],
];

describe("parsePath", () => {
  test.each(cases)("%s", (pathname, expected) => {
    expect(parsePath(pathname)).toMatchObject(expected);
  });

  test("a chart type sets chartType only on chart pages", () => {
    expect(parsePath("/track/1").chartType).toBeUndefined();
    expect(parsePath("/charts").chartType).toBeUndefined();
  });

  test("every page type is reachable from its own first segment", () => {
    for (const pageType of pageTypes.filter((type) => type !== "chartsview" && type !== "home")) {
      expect(parsePath(`/${pageType}`).pageType).toBe(pageType);
    }
  });
});

describe("localizedPath", () => {
  test.each([
    ["en", "/home", "/"],
    ["en", "/", "/"],
    ["en", "", "/"],
    ["en", "/track/1", "/track/1"],
    ["en", "track/1", "/track/1"],
    ["de", "/home", "/de"],
    ["de", "/track/1", "/de/track/1"],
    ["pt-br", "/charts", "/pt-br/charts"],
    ["gb", "/home", "/gb"],
    ["zh-tw", "/search", "/zh-tw/search"],
  ] as const)("%s %s → %s", (lang, path, expected) => {
    expect(localizedPath(lang, path)).toBe(expected);
  });

  test("round trip: a localized path parses back to its language and canonical path", () => {
    for (const path of ["/track/1/alias", "/charts", "/home"]) {
      for (const { key } of [{ key: "de" }, { key: "pt-br" }, { key: "gb" }] as const) {
        const parsed = parsePath(localizedPath(key, path));
        expect(parsed.langKey).toBe(key);
        expect(parsed.canonicalPath).toBe(path);
      }
    }
  });
});

describe("links", () => {
  test("ampPath puts /amp before the language prefix", () => {
    expect(ampPath("en", "/home")).toBe("/amp");
    expect(ampPath("en", "/track/1")).toBe("/amp/track/1");
    expect(ampPath("de", "/track/1")).toBe("/amp/de/track/1");
  });

  test("alternateLinks: 22 languages plus x-default", () => {
    const links = alternateLinks("https://www.tunewave.test", "/track/1");
    expect(links).toHaveLength(23);
    expect(links).toContainEqual({ hreflang: "en", href: "https://www.tunewave.test/track/1" });
    expect(links).toContainEqual({ hreflang: "en-GB", href: "https://www.tunewave.test/gb/track/1" });
    expect(links).toContainEqual({ hreflang: "pt-BR", href: "https://www.tunewave.test/pt-br/track/1" });
    expect(links).toContainEqual({ hreflang: "de", href: "https://www.tunewave.test/de/track/1" });
    expect(links.at(-1)).toEqual({ hreflang: "x-default", href: "https://www.tunewave.test/track/1" });
    expect(new Set(links.map((link) => link.hreflang)).size).toBe(23);
  });

  test("canonicalUrl is the prefixed URL of the language served", () => {
    expect(canonicalUrl("https://www.tunewave.test", "de", "/home")).toBe("https://www.tunewave.test/de");
    expect(canonicalUrl("https://www.tunewave.test", "en", "/home")).toBe("https://www.tunewave.test/");
  });

  test("languagePickerHref: English carries lang=en, others their prefix", () => {
    expect(languagePickerHref("en", "/charts")).toBe("/charts?lang=en");
    expect(languagePickerHref("en", "/home")).toBe("/?lang=en");
    expect(languagePickerHref("es-mx", "/charts")).toBe("/es-mx/charts");
  });
});

describe("a chart's pages of rows (decision 056)", () => {
  test.each([
    ["", 1],
    ["page=2", 2],
    ["page=4", 4],
    ["page=1", 1],
    ["page=0", undefined],
    ["page=02", undefined],
    ["page=-1", undefined],
    ["page=2.5", undefined],
    ["page=abc", undefined],
    ["page=", undefined],
    ["page=99999", undefined],
  ])("?%s is page %s", (query, page) => {
    expect(chartRowsPageOf(new URLSearchParams(query))).toBe(page);
  });

  test.each([
    ["/top-200/world", "page=2", "?page=2"],
    ["/top-200/world", "page=1", ""],
    ["/top-200/world", "page=abc", ""],
    ["/top-200/world", "itsct=x", ""],
    ["/genre/world/soundtrack/artists", "page=3&itsct=x", "?page=3"],
    ["/charts", "page=2", ""],
    ["/search", "page=2", ""],
  ])("%s?%s is addressed with %j", (path, query, address) => {
    expect(addressQuery(parsePath(path), new URLSearchParams(query))).toBe(address);
  });

  test("the address query is in the canonical URL and every alternate", () => {
    expect(canonicalUrl("https://tunewave.test", "de", "/top-200/world", "?page=2")).toBe(
      "https://tunewave.test/de/top-200/world?page=2",
    );
    const alternates = alternateLinks("https://tunewave.test", "/top-200/world", "?page=2");
    expect(alternates.every((link) => link.href.endsWith("/top-200/world?page=2"))).toBe(true);
  });
});
