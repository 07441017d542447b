import "#tests/all-languages.ts";
import type { AppLoadContext, MetaDescriptor } from "@remix-run/cloudflare";
import { createElement, type ReactElement } from "react";
import { expect, test } from "vitest";
import { ampRuntimeUrl, renderAmpDocument } from "#amp/document.tsx";
import { fixedImageSrc } from "#amp/primitives.tsx";
import { ampErrorDocument, strictStrings } from "#amp/render.tsx";
import type { ArtistPage, ArtistRelease } from "#app/artist/artist.server.ts";
import type { AlbumPage, ItemTrack, PlaylistPage } from "#app/catalogue/catalogue-items.server.ts";
import type { ChartPage } from "#app/charts/chart-page.server.ts";
import type { ChartsLanding } from "#app/charts/charts-landing.server.ts";
import type { HomePage } from "#app/routes/($lang)._index/page.server.ts";
import { ampView as homeAmpView } from "#app/routes/($lang)._index/route.tsx";
import { ampView as albumAmpView } from "#app/routes/($lang).album.$id.($alias)/route.tsx";
import { ampView as artistAmpView } from "#app/routes/($lang).artist.$artistIdOrName.$adamIdOrAlias/route.tsx";
import { ampView as landingAmpView } from "#app/routes/($lang).charts._index/route.tsx";
import { ampView as companyAmpView } from "#app/routes/($lang).company/route.tsx";
import { ampView as playlistAmpView } from "#app/routes/($lang).playlist.$id/route.tsx";
import { ampView as chartAmpView } from "#app/routes/($lang).top-200.$country.($include)/route.tsx";
import { ampView as trackAmpView } from "#app/routes/($lang).track.$key.$alias/route.tsx";
import { type PageMeta, pageMeta } from "#app/shell/meta.ts";
import { rootData } from "#app/shell/root-data.server.ts";
import type { Image, TrackSummary } from "#app/shell/view.ts";
import type { TrackPage } from "#app/track/track.server.ts";
import { resolveRequest } from "#edge/request-context.ts";
import { type Env, readConfig } from "#rules/env.ts";
import { featureNames } from "#rules/feature-names.ts";
import { stylesheetFiles, stylesheetText } from "#tests/amp-stylesheets.ts";
import { describeErrors, validateAmp } from "#tests/amp-validator.ts";

/** Loading the validator the first time fetches it from the registry. */
const validatorTimeout = 120_000;

// What hostile data can hold: markup, attribute breakouts, script and data URLs, CSS breakouts.
const scriptTag = "<script>alert(1)</script>";
const breakout = '" onload="alert(1)" x="';
const jsUrl = "javascript:alert(1)";
const hostileText = `${scriptTag}${breakout}</title></style><amp-analytics></amp-analytics>{{title}}`;

const stylesheets = stylesheetFiles.map(stylesheetText);

function contextFor(url: string) {
  const request = new Request(url, { headers: { "user-agent": "Mozilla/5.0" } });
  const edge = resolveRequest(request, undefined);
  // rootData and requestMeta read the edge only.
  const context = {
    edge,
    config: readConfig({
      SITE_ORIGIN: "https://www.tunewave.test",
      MAIL_TRANSPORT: "outbox",
      RECOGNIZER: {},
    } as Env),
    account: null,
  } as unknown as AppLoadContext;
  return { request, context, root: rootData(context, request, [featureNames.search]) };
}

function image(src: string, srcSet = `${src} 300w`): Image {
  return { src, srcSet, width: 300, height: 300 };
}

function track(overrides: Partial<TrackSummary> = {}): TrackSummary {
  return {
    key: "1",
    title: hostileText,
    artist: hostileText,
    href: jsUrl,
    cover: image(jsUrl, `${jsUrl} 75w`),
    isNewRelease: true,
    ...overrides,
  };
}

function hostileHome(): HomePage {
  return {
    chartCountry: { country: hostileText, inCountry: hostileText },
    chartHref: "//evil.example/chart",
    chartsHref: breakout,
    identifyHref: "javascript:alert(1)",
    searchHref: "data:text/html,<script>alert(1)</script>",
    top: [
      track(),
      track({
        key: "2",
        href: "/track/2/ok",
        cover: image("/media/a.jpg", "/media/a.jpg 75w, javascript:x 150w"),
      }),
    ],
    newReleases: [track({ key: "3", cover: undefined })],
  };
}

function hostileTrack(): TrackPage {
  return {
    key: "1",
    alias: "a",
    path: jsUrl,
    type: "MUSIC",
    title: hostileText,
    artist: {
      name: hostileText,
      href: `/artist/x${breakout}`,
      avatar: image(`data:image/svg+xml,${scriptTag}`),
      topSongs: [track({ key: "4" })],
    },
    cover: image(`/media/c.jpg${breakout}`),
    shareImage: image("/media/c.jpg"),
    background: "#123456;background:url(javascript:alert(1))",
    isNewRelease: true,
    details: {
      album: hostileText,
      released: hostileText,
      releaseDate: `2020-01-01${breakout}`,
      genre: hostileText,
      durationMs: 200_000,
      duration: "3:20",
      durationIso: "PT3M20S",
    },
    count: { total: 5, formatted: hostileText, demo: true },
    platform: "web",
    stores: [{ name: "spotify", label: hostileText, href: jsUrl }],
    playlist: [{ key: "1", title: hostileText, artist: hostileText, src: jsUrl, playlistBreak: false }],
    mainIndex: 0,
    related: [
      { ...track({ key: "5" }), playlistIndex: 0, count: { total: 7, formatted: hostileText, demo: true } },
    ],
    lyrics: {
      lines: [hostileText, hostileText],
      footer: hostileText,
      provider: hostileText,
      demo: true,
      synced: undefined,
    },
    video: {
      watch: jsUrl,
      embed: jsUrl,
      image: { src: jsUrl, srcSet: `${jsUrl} 1x`, width: 520, height: 280 },
      artTrack: true,
      offsetMs: 0,
    },
    share: {
      twitter: jsUrl,
      email: `mailto:?subject=${encodeURIComponent(scriptTag)}`,
      url: "https://tunewave.test/x",
    },
    credits: {
      people: [{ kind: "performer", title: hostileText, names: [hostileText] }],
      licence: hostileText,
      copyright: hostileText,
      package: hostileText,
      version: hostileText,
      packageHref: jsUrl,
    },
  };
}

function hostileChart(): ChartPage {
  const row = {
    ...track(),
    rankLabel: hostileText,
    artistHref: jsUrl,
  };
  return {
    chart: {
      type: "genre",
      countryCode: "WORLD",
      countryUrlName: hostileText,
      city: undefined,
      genre: { urlName: hostileText, name: hostileText },
      include: "artists",
      listid: hostileText,
      size: 2,
      path: jsUrl,
      title: hostileText,
      description: hostileText,
      countryName: hostileText,
      href: jsUrl,
      pageHref: breakout,
      artistsHref: jsUrl,
      csvHref: "data:text/csv,x",
      jsonHref: jsUrl,
      image: image(jsUrl),
    },
    updated: { at: breakout, text: hostileText, locale: "en" },
    demo: true,
    songCount: 2,
    rows: [row, { ...row, key: "2", href: "/track/2/ok", artistHref: "/artist/x/1" }],
    firstRank: 1,
    rowPages: [
      { number: 1, href: jsUrl, from: hostileText, to: hostileText, current: true },
      { number: 2, href: breakout, from: hostileText, to: hostileText, current: false },
    ],
    artists: [{ id: "9", name: hostileText, href: jsUrl, avatar: image(`data:image/png,${breakout}`) }],
    tabs: [{ type: "genre", href: jsUrl, current: true }],
    picker: {
      action: jsUrl,
      type: "genre",
      countries: [{ value: hostileText, label: hostileText }],
      country: hostileText,
      cities: [],
      city: undefined,
      genres: [{ value: hostileText, label: hostileText }],
      genre: hostileText,
    },
    landingHref: jsUrl,
  };
}

function hostileLanding(): ChartsLanding {
  const links = [{ name: hostileText, count: 3, href: jsUrl }];
  return {
    picker: { action: jsUrl, countries: [{ value: hostileText, label: hostileText }], country: hostileText },
    topInMyCountryHref: jsUrl,
    world: { name: hostileText, top200Href: jsUrl, discoveryHref: breakout, genres: links },
    radio: [{ name: hostileText, href: jsUrl }],
    country: {
      name: hostileText,
      top200Href: jsUrl,
      discoveryHref: breakout,
      cities: [{ name: hostileText, href: jsUrl }],
      genres: links,
    },
    preview: { title: hostileText, href: jsUrl, tracks: [track()], computedAt: undefined },
  };
}

function hostileArtist(): ArtistPage {
  const release: ArtistRelease = {
    key: "r",
    title: hostileText,
    subtitle: hostileText,
    href: jsUrl,
    listenHref: jsUrl,
    image: image(jsUrl),
    releaseDate: "2020-01-01",
    releaseDateLabel: hostileText,
    trackCount: 3,
    isSingle: false,
  };
  return {
    artist: {
      id: "1",
      adamid: "2",
      name: hostileText,
      alias: hostileText,
      genre: hostileText,
      origin: hostileText,
      bornOrFormed: hostileText,
      bio: hostileText,
      avatar: image(`/media/a.jpg${breakout}`),
      share: { subject: hostileText, text: hostileText },
      background: `#000000;background:url(${jsUrl})`,
      path: jsUrl,
      href: jsUrl,
    },
    concerts: { count: 3, href: jsUrl },
    latestRelease: release,
    topSongs: [track()],
    albums: [release],
    appearsOn: [{ ...release, key: "s", image: undefined }],
    playlists: [{ ...release, key: "p" }],
    similarArtists: [{ ...release, key: "a", href: breakout }],
  };
}

function hostileItemTrack(): ItemTrack {
  return {
    key: "1",
    title: hostileText,
    artist: hostileText,
    artistHref: jsUrl,
    href: jsUrl,
    cover: image(`/media/c.jpg${breakout}`),
    position: 1,
    duration: hostileText,
    durationIso: hostileText,
    count: { total: 3, formatted: hostileText },
    playlistIndex: 0,
  };
}

const hostileEntry = { key: "1", title: hostileText, artist: hostileText, src: jsUrl, playlistBreak: false };

function hostileAlbum(): AlbumPage {
  return {
    kind: "album",
    id: "1",
    alias: hostileText,
    path: jsUrl,
    name: hostileText,
    artist: { name: hostileText, href: jsUrl },
    artwork: image(`/media/a.jpg${breakout}`),
    background: `#000000;background:url(${jsUrl})`,
    notes: hostileText,
    kindLabel: hostileText,
    facts: [hostileText],
    listenHref: jsUrl,
    tracks: [hostileItemTrack()],
    playlist: [hostileEntry],
    credits: {
      released: hostileText,
      releaseDate: hostileText,
      label: hostileText,
      copyright: hostileText,
      genre: hostileText,
    },
    featuredIn: [{ key: "p", title: hostileText, subtitle: hostileText, href: jsUrl, image: image(jsUrl) }],
    share: { subject: hostileText, text: hostileText },
  };
}

function hostilePlaylist(): PlaylistPage {
  return {
    kind: "playlist",
    id: "pl.x",
    path: jsUrl,
    name: hostileText,
    curator: hostileText,
    artwork: image(`/media/a.jpg${breakout}`),
    background: `#000000;background:url(${jsUrl})`,
    notes: hostileText,
    kindLabel: hostileText,
    facts: [hostileText],
    listenHref: jsUrl,
    lastModified: hostileText,
    tracks: [hostileItemTrack()],
    playlist: [hostileEntry],
    share: { subject: hostileText, text: hostileText },
  };
}

function hostileMeta(base: Pick<PageMeta, "canonical" | "appPath" | "locale">): PageMeta {
  return {
    ...base,
    title: hostileText,
    description: hostileText,
    type: "music.song",
    image: { url: "https://tunewave.test/media/c.jpg", width: 800, height: 800, alt: hostileText },
    jsonLd: { "@context": "https://schema.org", "@type": "MusicRecording", name: hostileText, url: jsUrl },
  };
}

type Tag = { name: string; attributes: Map<string, string> };

function decodeEntities(value: string): string {
  return value
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/** Every start tag of the markup. Attribute values are quoted and escaped, so `>` ends a tag. */
function tagsOf(html: string): Tag[] {
  const withoutRaw = html
    .replace(/(<script type="application\/ld\+json">)[\s\S]*?(<\/script>)/g, "$1$2")
    .replace(/(<style amp-custom>)[\s\S]*?(<\/style>)/g, "$1$2");
  return [...withoutRaw.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)].map(
    (match) => ({
      name: (match[1] ?? "").toLowerCase(),
      attributes: new Map(
        [...(match[2] ?? "").matchAll(/\s+([^\s=>]+)(?:="([^"]*)")?/g)].map((attribute) => [
          (attribute[1] ?? "").toLowerCase(),
          decodeEntities(attribute[2] ?? ""),
        ]),
      ),
    }),
  );
}

/** The elements an AMP page of ours may hold: no iframe, form, embed, analytics, pixel or ad. */
const allowedTags = new Set([
  "html",
  "head",
  "meta",
  "title",
  "link",
  "script",
  "style",
  "noscript",
  "body",
  "a",
  "span",
  "div",
  "p",
  "h1",
  "h2",
  "h3",
  "section",
  "article",
  "header",
  "footer",
  "main",
  "nav",
  "aside",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "time",
  "br",
  "svg",
  "path",
  "amp-img",
]);

/** What the markup must never carry, whatever the data says. */
function expectNoActiveContent(html: string): void {
  const tags = tagsOf(html);
  for (const tag of tags) {
    expect(allowedTags.has(tag.name), `<${tag.name}>`).toBe(true);
    for (const [name, value] of tag.attributes) {
      expect(name.startsWith("on"), `${tag.name} ${name}`).toBe(false);
      if (["href", "src", "srcset", "action", "formaction", "xlink:href"].includes(name)) {
        expect(value.trim(), `${tag.name} ${name}`).not.toMatch(
          /^(javascript|data|vbscript):|^\/\/|javascript:/i,
        );
      }
      if (name === "style") expect(value, tag.name).toMatch(/^--(track-bg|artist-background):#[0-9a-f]{6}$/i);
    }
  }
  const scripts = tags.filter((tag) => tag.name === "script");
  expect(scripts.filter((tag) => tag.attributes.get("src") === ampRuntimeUrl)).toHaveLength(1);
  for (const script of scripts) {
    const isRuntime = script.attributes.get("src") === ampRuntimeUrl && script.attributes.has("async");
    expect(isRuntime || script.attributes.get("type") === "application/ld+json", "script").toBe(true);
  }
  expect(tags.filter((tag) => tag.name === "style")).toHaveLength(3);
  expect(html).not.toContain(scriptTag);
  expect(html).not.toMatch(/<amp-(analytics|pixel)/i);
  // Inside the JSON-LD nothing can close the script element.
  for (const json of html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
    expect(json[1]).not.toMatch(/[<>]/);
  }
}

/** A page's AMP entry (its route's `ampView`) rendered into the AMP document, as amp/render.tsx does. */
function render(
  url: string,
  page: { meta: PageMeta; extraMeta?: MetaDescriptor[]; view: (meta: PageMeta) => ReactElement },
) {
  const context = contextFor(url);
  const strings = strictStrings(context.context.edge.lang);
  return renderAmpDocument({
    root: context.root,
    descriptors: [...pageMeta(page.meta), ...(page.extraMeta ?? [])],
    view: page.view(page.meta),
    stylesheets,
    strings,
  });
}

// The AMP entries take the loader's data; these tests give them hostile data of the same shape.
type AmpEntry = (props: { data: never }) => ReactElement | null;
function entry(view: unknown, data: Record<string, unknown>): ReactElement {
  return createElement(view as AmpEntry, { data: data as never });
}

test(
  "hostile home data reaches the AMP page as text only, and the page stays valid AMP",
  async () => {
    const { html } = render("https://tunewave.test/amp", {
      meta: hostileMeta({ canonical: "https://tunewave.test/", appPath: "/home", locale: "en-US" }),
      view: (meta) => entry(homeAmpView, { page: hostileHome(), meta }),
    });
    expectNoActiveContent(html);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    // A safe image of a row survives; its srcset with a script URL does not.
    expect(html).toContain(
      '<amp-img class="track-row__cover" src="/media/a.jpg" width="56" height="56" layout="fixed" alt="">',
    );
    const result = await validateAmp(html);
    expect(result.status, describeErrors(result)).toBe("PASS");
  },
  validatorTimeout,
);

test(
  "hostile track data reaches the AMP page as text only, and the page stays valid AMP",
  async () => {
    const { html } = render("https://tunewave.test/amp/de/track/1/a", {
      meta: hostileMeta({
        canonical: "https://tunewave.test/de/track/1/a",
        appPath: "/track/1/a",
        locale: "de-DE",
      }),
      extraMeta: [{ property: "music:musician", content: hostileText }],
      view: (meta) => entry(trackAmpView, { page: hostileTrack(), meta }),
    });
    expectNoActiveContent(html);
    // The hostile colour is dropped with its style attribute; plays degrade to links, never audio.
    expect(html).not.toContain("style=");
    expect(html).not.toMatch(/<audio|<button/);
    const result = await validateAmp(html);
    expect(result.status, describeErrors(result)).toBe("PASS");
  },
  validatorTimeout,
);

test.each([
  [
    "chart",
    "https://tunewave.test/amp/ja/x",
    () => entry(chartAmpView, { page: hostileChart(), meta: { canonical: jsUrl } }),
  ],
  [
    "charts landing",
    "https://tunewave.test/amp/pt-br/x",
    () => entry(landingAmpView, { page: hostileLanding() }),
  ],
  [
    "artist",
    "https://tunewave.test/amp/de/x",
    () => entry(artistAmpView, { page: hostileArtist(), meta: { canonical: jsUrl } }),
  ],
  [
    "album",
    "https://tunewave.test/amp/fr/x",
    () => entry(albumAmpView, { page: hostileAlbum(), meta: { canonical: jsUrl } }),
  ],
  [
    "playlist",
    "https://tunewave.test/amp/ko/x",
    () => entry(playlistAmpView, { page: hostilePlaylist(), meta: { canonical: jsUrl } }),
  ],
] as const)(
  "hostile %s data reaches the AMP page as text only, and the page stays valid AMP",
  async (_name, url, view) => {
    const { html } = render(url, {
      meta: hostileMeta({ canonical: "https://tunewave.test/x", appPath: "/x", locale: "en-US" }),
      view,
    });
    expectNoActiveContent(html);
    expect(html).not.toContain("style=");
    const result = await validateAmp(html);
    expect(result.status, describeErrors(result)).toBe("PASS");
  },
  validatorTimeout,
);

test(
  "the company page's AMP form is valid AMP, with links from the data only when they are safe",
  async () => {
    const { html } = render("https://tunewave.test/amp/ko/company", {
      meta: hostileMeta({
        canonical: "https://tunewave.test/ko/company",
        appPath: "/company",
        locale: "ko-KR",
      }),
      view: () => entry(companyAmpView, { page: { identifyHref: jsUrl, chartsHref: "/ko/charts" } }),
    });
    expectNoActiveContent(html);
    expect(html).toContain('<a class="button button--outline" href="/ko/charts">');
    const result = await validateAmp(html);
    expect(result.status, describeErrors(result)).toBe("PASS");
  },
  validatorTimeout,
);

test("a safe track colour is the one inline style, and it counts in the CSS budget", () => {
  const page = { ...hostileTrack(), background: "#3931a3" };
  const { html, css } = render("https://tunewave.test/amp/track/1/a", {
    meta: hostileMeta({
      canonical: "https://tunewave.test/track/1/a",
      appPath: "/track/1/a",
      locale: "en-US",
    }),
    view: (meta) => entry(trackAmpView, { page, meta }),
  });
  expect(html).toContain('style="--track-bg:#3931a3"');
  expect(css.inlineBytes).toBe("--track-bg:#3931a3".length);
  expectNoActiveContent(html);
});

test(
  "the AMP error page is valid AMP and marked not to index",
  async () => {
    const context = contextFor("https://tunewave.test/amp/ja/no-such-page");
    const strings = strictStrings("ja");
    const { html } = ampErrorDocument({
      context: context.context,
      request: context.request,
      root: context.root,
      strings,
      status: 404,
      type: "notfound",
      stylesheets,
    });
    expect(html).toContain('<html amp lang="ja-JP" dir="ltr">');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain(strings.t("common:error.notfound"));
    expectNoActiveContent(html);
    const result = await validateAmp(html);
    expect(result.status, describeErrors(result)).toBe("PASS");
  },
  validatorTimeout,
);

test("a string key the page does not have fails loudly instead of printing the key", () => {
  const { t } = strictStrings("de");
  expect(t("track:lyrics")).not.toBe("track:lyrics");
  expect(() => t("track:noSuchKey")).toThrow(/no string track:noSuchKey/);
});

test.each([
  // A 56 px cover: the narrowest width at least 112.
  ["/a/75.jpg 75w, /a/150.jpg 150w, /a/225.jpg 225w, /a/300.jpg 300w", 56, "/a/150.jpg"],
  // Order does not matter.
  ["/a/300.jpg 300w, /a/75.jpg 75w, /a/150.jpg 150w", 56, "/a/150.jpg"],
  // None wide enough: the image's own `src` (undefined here).
  ["/a/75.jpg 75w", 56, undefined],
  // An unsafe candidate makes the whole srcset unsafe.
  ["javascript:alert(1) 150w, /a/300.jpg 300w", 56, undefined],
  [undefined, 56, undefined],
] as const)("a fixed AMP image of %s at %i px has the one source %s", (srcSet, width, src) => {
  expect(fixedImageSrc(srcSet, width)).toBe(src);
});
