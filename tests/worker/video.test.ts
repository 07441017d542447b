import { env } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { get } from "./site";

// The video layer (spec 002 §2, §4 "Video"): the track page's video section, the video site's
// watch and embed pages the embedded origin serves, and the site's policy that lets it frame them.

type TrackRow = { key: number; alias: string; title: string };

async function aTrack(): Promise<TrackRow> {
  const row = await env.DB.prepare(
    "SELECT key, alias, title FROM tracks ORDER BY key LIMIT 1",
  ).first<TrackRow>();
  if (!row) throw new Error("the catalogue has no track");
  return row;
}

/** The directive a frame is checked against: frame-src, else child-src, else default-src. */
function frameSources(policy: string): string[] {
  const directives = new Map(
    policy.split(";").map((d) => {
      const [name = "", ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
  return directives.get("frame-src") ?? directives.get("child-src") ?? directives.get("default-src") ?? [];
}

describe("the track page's video section", () => {
  test("the art track's preview image, the watch address, the play button, and a policy that allows the embed", async () => {
    const track = await aTrack();
    const response = await get(`/track/${track.key}/${track.alias}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toMatch(/<h2 id="track-video-title">Art track<\/h2>/);
    expect(page).toMatch(
      new RegExp(
        `<img class="video-preview__image"[^>]* src="/media/videos/${track.key}\\.jpg"[^>]* width="520" height="280"[^>]* loading="lazy"`,
      ),
    );
    expect(page).toContain(`href="/services/video/watch/${track.key}"`);
    expect(page).toMatch(
      /<button type="button" class="play-button video-preview__play" aria-label="Play the art track of [^"]+"/,
    );
    expect(page).toContain("an art track, not a music video");
    expect(frameSources(response.headers.get("content-security-policy") ?? "")).toContain("'self'");
  });

  test("the AMP page: the picture and the link, no play button", async () => {
    const track = await aTrack();
    const response = await get(`/amp/track/${track.key}/${track.alias}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toMatch(new RegExp(`<amp-img [^>]*src="/media/videos/${track.key}\\.jpg"`));
    expect(page).toContain(`href="/services/video/watch/${track.key}"`);
    expect(page).not.toContain("video-preview__play");
  });

  test("the page in German says so in German", async () => {
    const track = await aTrack();
    const page = await (await get(`/de/track/${track.key}/${track.alias}`)).text();
    expect(page).toContain(">Art-Track</h2>");
  });
});

describe("the video site", () => {
  test("the embed page: the art track in a <video>, its player script, framed by the site only", async () => {
    const track = await aTrack();
    const response = await get(`/services/video/embed/${track.key}?autoplay=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("unsafe-inline'; script");
    const page = await response.text();
    expect(page).toContain(
      `<video data-src="/media/videos/${track.key}.webm" poster="/media/videos/${track.key}.jpg"`,
    );
    expect(page).toMatch(/<video [^>]* autoplay>/);
    expect(page).toContain('<script src="/services/video/player.js"></script>');
    const plain = await (await get(`/services/video/embed/${track.key}`)).text();
    expect(plain).not.toMatch(/<video [^>]* autoplay>/);
  });

  test("the watch page is framed by nobody and names the track, escaped", async () => {
    const track = await aTrack();
    const response = await get(`/services/video/watch/${track.key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const page = await response.text();
    expect(page).toContain("(art track)</h1>");
    expect(page).toContain(`<video src="/media/videos/${track.key}.webm"`);
    expect(page).toContain("not a music video");
  });

  test("the player script checks the origin of what it hears and names the one it tells", async () => {
    const response = await get("/services/video/player.js");
    expect(response.headers.get("content-type")).toMatch(/^text\/javascript/);
    const script = await response.text();
    expect(script).toContain("message.origin !== site");
    expect(script).toContain("postMessage(");
    expect(script).toMatch(/}, site\);/);
  });

  test.each([
    ["a video id that is not a track key", "/services/video/embed/abc", 400],
    ["an autoplay that is neither 0 nor 1", "/services/video/embed/1?autoplay=yes", 400],
    ["an unknown track", "/services/video/watch/1", 404],
    ["another kind of page", "/services/video/download/1", 404],
  ])("%s is refused with a JSON error", async (_, path, status) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ error: expect.any(String) });
  });
});
