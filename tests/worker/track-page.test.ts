import "#tests/all-languages.ts";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, test, vi } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { createOrigin } from "#origin/index.ts";
import { contrastRatio } from "#rules/content-rules.ts";
import worker from "./built-worker";
import { getAs, metaContent } from "./site";

afterEach(() => {
  vi.restoreAllMocks();
});

type TrackRow = { key: number; alias: string; title: string; total: number; duration_ms: number };

/** A catalogue track, with or without lyrics; `skip` picks another one. */
async function aTrack(withLyrics: boolean, skip = 0): Promise<TrackRow> {
  const row = await env.DB.prepare(
    `SELECT t.key, t.alias, t.title, c.total, t.duration_ms FROM tracks t JOIN tag_counts c ON c.track_key = t.key
     WHERE t.key ${withLyrics ? "" : "NOT"} IN (SELECT track_key FROM lyrics) ORDER BY t.key LIMIT 1 OFFSET ?`,
  )
    .bind(skip)
    .first<TrackRow>();
  if (!row) throw new Error("the catalogue has no such track");
  return row;
}

const userAgents = {
  android:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  desktop:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
};

const get = getAs({ "user-agent": userAgents.desktop });

async function html(path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await get(path, { headers });
  expect(response.status, path).toBe(200);
  return response.text();
}

function decoded(text: string): string {
  return text
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"');
}

describe("the track page", () => {
  test("renders the track from the catalogue at the edge", async () => {
    const track = await aTrack(true);
    const page = await html(`/track/${track.key}/${track.alias}`);
    expect(page).toMatch(/<html lang="en-US"/);
    expect(decoded(page)).toContain(`<h1 id="track-title" class="track-hero__title">${track.title}</h1>`);
    // Cover art: track widths 75–300 step 75 and the default 375, with its size reserved.
    expect(page).toMatch(
      /<img class="track-hero__cover" src="\/media\/art\/[^"]+\/375x375\.jpg" srcSet="[^"]*75x75\.jpg 75w, [^"]*150x150\.jpg 150w, [^"]*225x225\.jpg 225w, [^"]*300x300\.jpg 300w, [^"]*375x375\.jpg 375w" sizes="[^"]+" width="375" height="375" alt="[^"]+"/,
    );
    // The count from the tag count call, formatted for the language.
    expect(page).toContain(`data-count="${track.total}"`);
    expect(page).toContain(`Identified ${new Intl.NumberFormat("en-US").format(track.total)} times`);
    // Artist link, lyrics with their demo footer and provider, related tracks, share, credits.
    expect(page).toMatch(/<p class="track-hero__artist"><a [^>]*href="\/artist\/[^"]+\/\d+"/);
    expect(page).toContain("Demo lyrics");
    expect(page).toContain("Lyrics provided by Tunewave demo lyrics");
    expect(page).toMatch(/aria-labelledby="track-related-title"/);
    expect(page).toContain("https://twitter.com/intent/tweet?text=");
    expect(page).toContain("mailto:?subject=");
    expect(page.replace(/<!-- -->/g, "")).toMatch(
      /Licence: [^<]+ · Source: Debian package <a href="https:\/\/packages\.debian\.org\/[^"]+"/,
    );
    // Without JavaScript the play buttons are links to the preview files.
    expect(page).toContain(`href="/media/previews/${track.key}.ogg"`);
  });

  test("one share control: the hero's menu on the React page, the links only as its no-script fallback; AMP has the links", async () => {
    const track = await aTrack(true);
    const path = `/track/${track.key}/${track.alias}`;
    const { t } = serverStrings("en");
    const shareSection = /<section[^>]*aria-labelledby="track-share-title"[\s\S]*?<\/section>/g;
    const react = decoded(await html(path));
    // The hero's menu button, marked for the no-script rule that hides it (track.css).
    expect(react).toMatch(
      new RegExp(
        `<div class="track-hero__actions">.*<button [^>]*class="[^"]*track-hero__share[^"]*"[^>]*aria-haspopup="menu"[^>]*>${t("track:share")}</button>`,
      ),
    );
    // The share links once, inside a <noscript> that holds nothing else.
    const sections = [...react.matchAll(shareSection)];
    expect(sections).toHaveLength(1);
    expect(react).toMatch(
      /<noscript><section[^>]*aria-labelledby="track-share-title"[\s\S]*?<\/section><\/noscript>/,
    );
    const outsideNoscript = react.replace(/<noscript>[\s\S]*?<\/noscript>/g, "");
    expect(outsideNoscript).not.toContain('id="track-share-title"');
    expect(outsideNoscript).not.toContain('href="https://twitter.com/intent/tweet');
    // AMP has no script for a menu: the links are its share control, and there is no menu button.
    const amp = decoded(await html(`/amp${path}`));
    expect([...amp.matchAll(shareSection)]).toHaveLength(1);
    expect(amp).not.toContain("<noscript><section");
    expect(amp).not.toContain('aria-haspopup="menu"');
    expect(amp).toContain("https://twitter.com/intent/tweet?text=");
    expect(amp).toContain(`>${t("track:shareEmail")}</a>`);
  });

  test("the heading is on the track's colour, with white text at 4.5:1 or more", async () => {
    for (const skip of [0, 1, 2, 3]) {
      const track = await aTrack(false, skip);
      const page = await html(`/track/${track.key}/${track.alias}`);
      const colour = page.match(/--track-bg:(#[0-9a-f]{6})/i)?.[1];
      expect(colour, String(track.key)).toBeDefined();
      expect(contrastRatio(colour ?? "#ffffff", "#ffffff")).toBeGreaterThanOrEqual(4.5);
    }
  });

  test.each([
    ["android", userAgents.android, ["google", "spotify", "amazon", "apple", "itunes", "xboxmusic"]],
    ["ios", userAgents.iphone, ["apple", "spotify", "itunes", "google", "amazon", "xboxmusic"]],
    ["other", userAgents.desktop, ["spotify", "apple", "amazon", "itunes", "google", "xboxmusic"]],
  ])("stores in the %s priority (spec 001 §3)", async (platform, userAgent, order) => {
    const track = await aTrack(false);
    const response = await get(`/track/${track.key}/${track.alias}`, {
      headers: { "user-agent": userAgent },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("vary")).toContain("User-Agent");
    const page = await response.text();
    expect(page).toContain(`data-platform="${platform === "other" ? "web" : platform}"`);
    expect([...page.matchAll(/data-store="([a-z]+)"/g)].map((match) => match[1])).toEqual(order);
  });

  test("meta for scrapers: Open Graph with the image size, Twitter card, app links, JSON-LD", async () => {
    const track = await aTrack(true);
    const path = `/track/${track.key}/${track.alias}`;
    const page = await html(path, { "user-agent": "facebookexternalhit/1.1" });
    expect(decoded(page)).toMatch(
      new RegExp(`<title>${track.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} by `),
    );
    expect(metaContent(page, "property", "og:type")).toBe("music.song");
    expect(metaContent(page, "property", "og:url")).toBe(`https://tunewave.test${path}`);
    expect(metaContent(page, "property", "og:image")).toMatch(
      /^https:\/\/tunewave\.test\/media\/art\/.+\/800x800\.jpg$/,
    );
    expect(metaContent(page, "property", "og:image:width")).toBe("800");
    expect(metaContent(page, "property", "og:image:height")).toBe("800");
    expect(metaContent(page, "property", "og:image:alt")).toContain(track.title);
    expect(metaContent(page, "property", "music:duration")).toBe(
      String(Math.round(track.duration_ms / 1000)),
    );
    expect(metaContent(page, "name", "description")).toContain(track.title);
    expect(metaContent(page, "name", "twitter:card")).toBe("summary_large_image");
    expect(metaContent(page, "name", "twitter:image")).toBe(metaContent(page, "property", "og:image"));
    expect(metaContent(page, "property", "al:ios:url")).toBe(`tunewave:/${path}`);
    expect(metaContent(page, "property", "al:android:url")).toBe(`tunewave:/${path}`);
    expect(metaContent(page, "name", "apple-itunes-app")).toContain(`app-argument=tunewave:/${path}`);
    expect(page).toContain(`<link rel="canonical" href="https://tunewave.test${path}"/>`);
    expect(page).toMatch(/<link rel="preload" as="image" href="[^"]+375x375\.jpg" imageSrcSet="[^"]+"/i);

    const jsonLd = page.match(/<script type="application\/ld\+json">(.*?)<\/script>/)?.[1];
    const recording = JSON.parse(jsonLd ?? "{}") as Record<string, unknown>;
    expect(recording).toMatchObject({
      "@context": "https://schema.org",
      "@type": "MusicRecording",
      name: track.title,
      url: `https://tunewave.test${path}`,
      byArtist: { "@type": "MusicGroup" },
      inAlbum: { "@type": "MusicAlbum" },
    });
    expect(recording.duration).toMatch(/^PT(\d+M)?\d+S$/);
    expect(recording.image).toBe(metaContent(page, "property", "og:image"));
  });

  test("the song's credits, from its credits call: who performed it and who wrote it, in the page's language", async () => {
    const track = await aTrack(true);
    const artist = await env.DB.prepare(
      "SELECT a.name AS artist_name FROM tracks t JOIN artists a ON a.id = t.artist_id WHERE t.key = ?",
    )
      .bind(track.key)
      .first<{ artist_name: string }>();
    const credits = decoded(await html(`/de/track/${track.key}/${track.alias}`)).match(
      /<dl class="track-credits__people">.*?<\/dl>/,
    )?.[0];
    expect(credits).toBe(
      `<dl class="track-credits__people"><div><dt>Interpreten</dt><dd>${artist?.artist_name}</dd></div>` +
        `<div><dt>Komposition & Text</dt><dd>${artist?.artist_name}</dd></div></dl>`,
    );
  });

  test("in another language: strings, numbers and links in that language", async () => {
    const track = await aTrack(true);
    const page = await html(`/de/track/${track.key}/${track.alias}`);
    expect(page).toMatch(/<html lang="de-DE"/);
    expect(page).toContain(">Songtext</h2>");
    expect(page).toContain(`${new Intl.NumberFormat("de-DE").format(track.total)}-mal erkannt`);
    expect(page).toMatch(/<p class="track-hero__artist"><a [^>]*href="\/de\/artist\//);
    expect(page).toContain(
      `<link rel="canonical" href="https://tunewave.test/de/track/${track.key}/${track.alias}"/>`,
    );
  });

  test("synced lyrics are shown while the heard song plays, and not after", async () => {
    const track = await aTrack(true);
    const path = `/track/${track.key}/${track.alias}`;
    const during = await html(
      `${path}?startDate=${Date.now()}&offsetInMilliseconds=60000&trackLength=${track.duration_ms}&timeSkew=0`,
    );
    const list = during.match(/<ol class="synced-lyrics".*?<\/ol>/)?.[0] ?? "";
    expect(list).not.toBe("");
    // At most one line is current: none before the first line starts.
    expect(list.match(/aria-current="true"/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(during).toContain("In time with the song you heard");

    const after = await html(
      `${path}?startDate=${Date.now() - 2 * track.duration_ms}&offsetInMilliseconds=60000&trackLength=${track.duration_ms}`,
    );
    expect(after).not.toContain('class="synced-lyrics"');
    expect(after).toContain('class="track-lyrics__text"');

    const badOffset = await html(`${path}?startDate=${Date.now()}&offsetInMilliseconds=-5`);
    expect(badOffset).not.toContain('class="synced-lyrics"');
  });
});

describe("addresses and validation", () => {
  test("a wrong alias moves (301) to the right one, keeping the query", async () => {
    const track = await aTrack(true);
    const cases: [string, string][] = [
      [`/track/${track.key}/not-the-alias`, `/track/${track.key}/${track.alias}`],
      [
        `/track/${track.key}/x?startDate=1&offsetInMilliseconds=2`,
        `/track/${track.key}/${track.alias}?startDate=1&offsetInMilliseconds=2`,
      ],
      [`/track/${track.key}`, `/track/${track.key}/${track.alias}`],
      [`/track/${track.key}?itsct=charts`, `/track/${track.key}/${track.alias}?itsct=charts`],
      [`/de/track/${track.key}`, `/de/track/${track.key}/${track.alias}`],
      [`/de/track/${track.key}/wrong`, `/de/track/${track.key}/${track.alias}`],
      [`/track/${track.key}abc/${track.alias}`, `/track/${track.key}/${track.alias}`],
    ];
    for (const [path, location] of cases) {
      const response = await get(path);
      expect(response.status, path).toBe(301);
      expect(response.headers.get("location"), path).toBe(location);
    }
  });

  test.each([
    ["a non-numeric id", "/track/abc/some-song", 400, "This link is not valid"],
    ["a non-numeric id without alias", "/track/abc", 400, "This link is not valid"],
    ["an id too long to be one", "/track/12345678901234567/x", 400, "This link is not valid"],
    ["an unknown id", "/track/999999999/some-song", 404, "This content is no longer available"],
    ["an unknown id without alias", "/track/999999999", 404, "This content is no longer available"],
    ["an unknown language", "/xx/track/1/x", 404, "The page you requested was not found"],
  ])("%s: %s → %i", async (_name, path, status, message) => {
    const response = await get(path);
    expect(response.status, path).toBe(status);
    const page = await response.text();
    expect(page).toContain('class="error-page"');
    expect(page).toContain(message);
  });

  test("a track of a type the spec does not know is a data error (the baddata page)", async () => {
    const track = await aTrack(false, 5);
    const remote = createOrigin();
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.host !== "origin-other.example") return realFetch(input, init);
      const answer = await remote.fetch(request, env);
      if (!/^\/services\/track\/v1\/[^/]+\/[^/]+\/web\/\d+$/.test(url.pathname)) return answer;
      const body = (await answer.json()) as Record<string, unknown>;
      return Response.json({ ...body, type: "PODCAST" });
    });
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`https://tunewave.test/track/${track.key}/${track.alias}`, {
        headers: { "user-agent": userAgents.desktop },
      }),
      { ...env, SERVICES_ORIGIN: "https://origin-other.example" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(502);
    const page = await response.text();
    expect(page).toContain('class="error-page"');
    expect(page).toContain("Seems like we&#x27;re missing data needed to load this page");
  });

  test("a track the catalogue removed: 404, “Not Found / This content is no longer available” (spec 001 §8)", async () => {
    const track = await aTrack(false, 6);
    const remote = createOrigin();
    const realFetch = globalThis.fetch;
    // The stand-in upstream has taken the track down: its track calls answer 404, as the
    // catalogue's own origin does for a key it does not hold.
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.host !== "origin-removed.example") return realFetch(input, init);
      if (url.pathname.includes(`/web/${track.key}`))
        return Response.json({ error: "notfound", message: "Track not found" }, { status: 404 });
      return remote.fetch(request, env);
    });
    for (const path of [`/track/${track.key}/${track.alias}`, `/track/${track.key}`]) {
      const ctx = createExecutionContext();
      const response = await worker.fetch(
        new Request(`https://tunewave.test${path}`, { headers: { "user-agent": userAgents.desktop } }),
        { ...env, SERVICES_ORIGIN: "https://origin-removed.example" },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(response.status, path).toBe(404);
      const page = await response.text();
      expect(page, path).toContain('<h1 id="error-title">Not Found</h1>');
      expect(page, path).toContain("This content is no longer available");
    }
  });
});
