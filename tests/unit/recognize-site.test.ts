import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type WebrecMatchResponse, webrecMatchRequestSchema } from "#rules/schemas/webrec.ts";
import { decodeSignatureBase64, encodeWav16, signatureDurationMs } from "#signature/index.ts";
import { attemptsFor, formatSummary, formatTsv, main } from "#tools/recognize/recognize.ts";
import { encodedFixtures } from "./decode-fixtures";
import { composeTrack, renderTrack } from "./signature-music";

// `npm run recognize` against a site: what it posts to /services/webrec/match (the page's request,
// checkpoint after checkpoint in one session), how it reads the answers and the track lookup, and
// what it prints for every kind of file and failure. The site is a fetch stub that checks each
// request with the origin's own schema and signature decoder.

const site = "http://tunewave.test:8787";
const matchedKey = "475560967";

type Posted = {
  sessionId: string;
  lang: string;
  country: string;
  seconds: number;
  contentType: string | null;
};

type Answer = WebrecMatchResponse | Response;

/** A site that answers a match request with `answer(seconds heard)` and knows one track. */
function fakeSite(answer: (seconds: number) => Answer = () => ({ matches: [] })) {
  const posted: Posted[] = [];
  const lookups: string[] = [];
  const fetch = (async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    expect(url.origin).toBe(site);
    if (url.pathname === "/services/webrec/match") {
      expect(init?.method).toBe("POST");
      const body = v.parse(webrecMatchRequestSchema, JSON.parse(String(init?.body)));
      const seconds = signatureDurationMs(decodeSignatureBase64(body.data)) / 1000;
      posted.push({
        sessionId: body.sessionId,
        lang: body.lang,
        country: body.country,
        seconds,
        contentType: new Headers(init?.headers).get("content-type"),
      });
      const reply = answer(seconds);
      return reply instanceof Response ? reply : Response.json(reply);
    }
    if (url.pathname.startsWith("/services/track/v1/")) {
      lookups.push(url.pathname);
      if (url.pathname.endsWith(`/web/${matchedKey}`)) {
        return Response.json({
          key: matchedKey,
          alias: "nuclear-heartbeat",
          title: "Nuclear Heartbeat",
          subtitle: "LupusMechanicus",
          durationMs: 477_004,
          properties: { bkgcolor: "1a2b3c", bkglight: false },
        });
      }
      return Response.json({ error: "notfound", message: "No such track" }, { status: 404 });
    }
    return new Response("not found", { status: 404 });
  }) as typeof globalThis.fetch;
  return { fetch, posted, lookups };
}

/** The site's answer: a match of this track from 143.104 s. */
function matchOf(trackId: string): WebrecMatchResponse {
  return {
    matches: [{ trackId, weburl: `/track/${trackId}/x`, offset: 143_104, timeskew: 0, frequencyskew: 0 }],
  };
}

const aMatch = matchOf(matchedKey);

let dir: string;

/** Synthetic music (in no catalogue) as a 16-bit WAV in the test's folder. */
function musicWav(name: string, seconds: number, sampleRate = 44_100): string {
  const samples = renderTrack(composeTrack(seconds * 1000 + sampleRate, seconds + 1), {
    fromSecond: 0,
    seconds,
    sampleRate,
  });
  const file = join(dir, name);
  writeFileSync(file, encodeWav16(samples, sampleRate));
  return file;
}

async function run(argv: string[], fetch: typeof globalThis.fetch) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(["--site", site, ...argv], {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    fetch,
    cwd: dir,
  });
  const lines = out.join("").split("\n").slice(0, -1);
  return { status, lines, rows: lines.map((line) => line.split("\t")), stderr: err.join("") };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tunewave-recognize-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

test.each([
  // duration, --seconds, attempts as [from, seconds]
  [2, null, [[0, 2]]],
  [3, null, [[0, 3]]],
  [
    7,
    null,
    [
      [0, 3],
      [0, 6],
      [0, 7],
    ],
  ],
  [
    12,
    null,
    [
      [0, 3],
      [0, 6],
      [0, 9],
      [0, 12],
    ],
  ],
  [
    14,
    null,
    [
      [0, 3],
      [0, 6],
      [0, 9],
      [0, 12],
    ],
  ],
  [
    15,
    null,
    [
      [0, 3],
      [0, 6],
      [0, 9],
      [0, 12],
      [12, 3],
    ],
  ],
  [
    40,
    null,
    [
      [0, 3],
      [0, 6],
      [0, 9],
      [0, 12],
      [12, 12],
      [24, 12],
      [36, 4],
    ],
  ],
  [40, 6, [[0, 6]]],
  [4, 6, [[0, 4]]],
] as const)("a %s s file with --seconds %s is matched in these stretches", (duration, seconds, expected) => {
  expect(attemptsFor(duration, seconds).map((a) => [a.fromSeconds, a.seconds])).toEqual(expected);
});

describe("the site's checkpoints", () => {
  test("each checkpoint is posted as the page posts it, in one session, until a match", async () => {
    musicWav("song.wav", 20);
    const fake = fakeSite((seconds) => (seconds > 8 ? aMatch : { matches: [] }));
    const { status, rows, lines, stderr } = await run(["song.wav"], fake.fetch);
    expect(fake.posted.map((post) => Math.round(post.seconds))).toEqual([3, 6, 9]);
    for (const post of fake.posted) {
      expect(post).toMatchObject({ sessionId: fake.posted[0]?.sessionId, lang: "en", country: "GB" });
      expect(post.contentType).toBe("application/json");
    }
    expect(fake.lookups).toEqual([`/services/track/v1/en/GB/web/${matchedKey}`]);
    expect(rows[0]?.slice(0, 6)).toEqual([
      "song.wav",
      matchedKey,
      "Nuclear Heartbeat",
      "LupusMechanicus",
      "143104",
      "-",
    ]);
    expect(Number(rows[0]?.[6])).toBeGreaterThanOrEqual(0);
    expect(lines[1]).toMatch(/^# 1 file: 1 matched, 0 not matched, 0 failed; \d+ ms$/);
    expect(status).toBe(0);
    expect(stderr).toBe("");
  });

  test("every file has its own session", async () => {
    musicWav("one.wav", 4);
    musicWav("two.wav", 4);
    const fake = fakeSite();
    await run(["one.wav", "two.wav"], fake.fetch);
    expect(fake.posted).toHaveLength(4);
    expect(fake.posted[0]?.sessionId).toBe(fake.posted[1]?.sessionId);
    expect(fake.posted[2]?.sessionId).toBe(fake.posted[3]?.sessionId);
    expect(fake.posted[0]?.sessionId).not.toBe(fake.posted[2]?.sessionId);
  });

  test("no match: the checkpoints, then the rest of the file, then - in every column but the file and the time", async () => {
    musicWav("unknown.wav", 20);
    const fake = fakeSite();
    const { status, rows, lines } = await run(["unknown.wav"], fake.fetch);
    expect(fake.posted.map((post) => Math.round(post.seconds))).toEqual([3, 6, 9, 12, 8]);
    expect(fake.lookups).toEqual([]);
    expect(rows[0]?.slice(0, 6)).toEqual(["unknown.wav", "-", "-", "-", "-", "-"]);
    expect(rows[0]?.[6]).toMatch(/^\d+$/);
    expect(lines[1]).toMatch(/^# 1 file: 0 matched, 1 not matched, 0 failed; \d+ ms$/);
    expect(status).toBe(0);
  });

  test("a song that starts late in the file is found in a later stretch, and JSON says where", async () => {
    musicWav("memo.wav", 30);
    // Only the stretch from 24 s (6 s long) is the song.
    const fake = fakeSite((seconds) =>
      Math.round(seconds) === 6 && fake.posted.length > 4 ? aMatch : { matches: [] },
    );
    const { status, lines } = await run(["--json", "memo.wav"], fake.fetch);
    expect(fake.posted.map((post) => Math.round(post.seconds))).toEqual([3, 6, 9, 12, 12, 6]);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      trackKey: matchedKey,
      offsetMs: 143_104,
      heardAtMs: 24_000,
    });
    expect(status).toBe(0);
  });

  test("a file shorter than the checkpoints is heard whole, once", async () => {
    musicWav("short.wav", 5);
    const fake = fakeSite();
    await run(["short.wav"], fake.fetch);
    expect(fake.posted.map((post) => Math.round(post.seconds))).toEqual([3, 5]);
  });

  test.each([
    [3, [3]],
    [6, [6]],
    [12, [12]],
    [4.5, [4.5]],
    [30, [20]],
  ])("--seconds %s: one request of the first seconds only", async (seconds, heard) => {
    musicWav("long.wav", 20);
    const fake = fakeSite();
    await run(["--seconds", String(seconds), "long.wav"], fake.fetch);
    expect(fake.posted.map((post) => Math.round(post.seconds * 2) / 2)).toEqual(heard);
  });
});

describe("formats and sample rates", () => {
  test.each([8000, 11_025, 16_000, 22_050, 32_000, 44_100, 48_000])("a %d Hz WAV", async (rate) => {
    musicWav(`rate-${rate}.wav`, 4, rate);
    const fake = fakeSite();
    const { status, rows } = await run([`rate-${rate}.wav`], fake.fetch);
    expect(rows[0]?.[1]).toBe("-");
    expect(fake.posted.map((post) => Math.round(post.seconds))).toEqual([3, 4]);
    expect(status).toBe(0);
  });

  test.each([4000, 6000, 256_000])(
    "a %d Hz WAV, outside the signature's rates, is resampled",
    async (rate) => {
      musicWav(`odd-${rate}.wav`, 3, rate);
      const fake = fakeSite();
      const { status, rows } = await run([`odd-${rate}.wav`], fake.fetch);
      expect(rows[0]?.[1]).toBe("-");
      expect(fake.posted.map((post) => Math.round(post.seconds))).toEqual([3]);
      expect(status).toBe(0);
    },
  );

  test("MP3, FLAC, Ogg Vorbis and Opus at their rates, each read and posted", async () => {
    const files = encodedFixtures.map((fixture) => {
      writeFileSync(join(dir, fixture.name), Buffer.from(fixture.base64, "base64"));
      return fixture.name;
    });
    const fake = fakeSite();
    const { status, rows } = await run(files, fake.fetch);
    expect(rows.slice(0, -1).map((row) => row.slice(0, 2))).toEqual(files.map((file) => [file, "-"]));
    expect(fake.posted).toHaveLength(files.length);
    expect(status).toBe(0);
  });
});

describe("bad files", () => {
  test("each gets an error line, the run goes on, and the exit status is 1", async () => {
    writeFileSync(join(dir, "notes.txt"), "definitely not audio");
    writeFileSync(join(dir, "empty.wav"), new Uint8Array(0));
    writeFileSync(join(dir, "cut.wav"), encodeWav16(new Float32Array(800), 8000).subarray(0, 36));
    const vorbis = encodedFixtures.find((fixture) => fixture.format === "vorbis")?.base64 ?? "";
    writeFileSync(join(dir, "headers-only.ogg"), Buffer.from(vorbis, "base64").subarray(0, 120));
    musicWav("fine.wav", 3);
    const fake = fakeSite();
    const { status, rows, lines } = await run(
      ["notes.txt", "missing.mp3", "empty.wav", "cut.wav", "headers-only.ogg", "fine.wav"],
      fake.fetch,
    );
    expect(rows.slice(0, 5).map((row) => [row[0], row[1], row[2]?.split(":")[0]])).toEqual([
      ["notes.txt", "error", "unsupported"],
      ["missing.mp3", "error", "unreadable"],
      ["empty.wav", "error", "unsupported"],
      ["cut.wav", "error", "corrupt"],
      ["headers-only.ogg", "error", "corrupt"],
    ]);
    expect(rows[0]?.[2]).toBe(
      'unsupported: Unsupported audio format (starts with "defi"): expected WAV, Ogg Vorbis, Opus, MP3 or FLAC',
    );
    expect(rows[1]?.[2]).toBe(`unreadable: Cannot read ${join(dir, "missing.mp3")} (ENOENT)`);
    expect(rows.map((row) => row.length)).toEqual([3, 3, 3, 3, 3, 7, 1]);
    expect(rows[5]?.slice(0, 2)).toEqual(["fine.wav", "-"]);
    expect(lines[6]).toMatch(/^# 6 files: 0 matched, 1 not matched, 5 failed; \d+ ms$/);
    expect(fake.posted).toHaveLength(1);
    expect(status).toBe(1);
  });

  test("--json: the error as type and message", async () => {
    writeFileSync(join(dir, "notes.txt"), "definitely not audio");
    const { status, lines } = await run(["--json", "notes.txt"], fakeSite().fetch);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      file: "notes.txt",
      error: {
        type: "unsupported",
        message: 'Unsupported audio format (starts with "defi"): expected WAV, Ogg Vorbis, Opus, MP3 or FLAC',
      },
    });
    expect(JSON.parse(lines[1] ?? "")).toMatchObject({
      summary: { files: 1, matched: 0, unmatched: 0, errors: 1 },
    });
    expect(status).toBe(1);
  });
});

describe("the site's answers", () => {
  test("--json: the match as JSON, score null (a site's answer has none)", async () => {
    musicWav("json.wav", 8);
    const { status, lines } = await run(["--json", "json.wav"], fakeSite(() => aMatch).fetch);
    const line = JSON.parse(lines[0] ?? "");
    expect(line).toEqual({
      file: "json.wav",
      trackKey: matchedKey,
      title: "Nuclear Heartbeat",
      artist: "LupusMechanicus",
      offsetMs: 143_104,
      heardAtMs: 0,
      score: null,
      ms: line.ms,
      seconds: 3,
    });
    expect(line.ms).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(lines[1] ?? "")).toEqual({
      summary: { files: 1, matched: 1, unmatched: 0, errors: 0, ms: expect.any(Number) },
    });
    expect(status).toBe(0);
  });

  test("a failed title lookup keeps the match, with - for title and artist and a warning", async () => {
    musicWav("other.wav", 4);
    const { status, rows, stderr } = await run(["other.wav"], fakeSite(() => matchOf("1")).fetch);
    expect(rows[0]?.slice(0, 6)).toEqual(["other.wav", "1", "-", "-", "143104", "-"]);
    expect(stderr).toMatch(/^recognize: warning: no title for track 1: /);
    expect(status).toBe(0);
  });

  test.each([
    [
      "an error answer",
      () => Response.json({ error: "serviceerror", message: "down" }, { status: 500 }),
      "serviceerror",
    ],
    ["an answer of another shape", () => Response.json({ matches: [{ trackId: 12 }] }), "baddata"],
    ["an answer that is not JSON", () => new Response("<html>", { status: 200 }), "serviceerror"],
  ])("%s is an error line for the file, the run goes on, exit status 3", async (_name, reply, type) => {
    musicWav("a.wav", 3);
    musicWav("b.wav", 3);
    const fake = fakeSite(reply);
    const { status, rows } = await run(["a.wav", "b.wav"], fake.fetch);
    expect(rows.slice(0, 2).map((row) => [row[0], row[1], row[2]?.split(":")[0]])).toEqual([
      ["a.wav", "error", type],
      ["b.wav", "error", type],
    ]);
    expect(rows[0]?.[2]).toContain(`(${site})`);
    expect(status).toBe(3);
  });

  test("a site that does not answer: a network error naming the site; exit status 3", async () => {
    musicWav("c.wav", 3);
    const down = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof globalThis.fetch;
    const { status, rows } = await run(["c.wav", "missing.wav"], down);
    expect(rows[0]).toEqual([
      "c.wav",
      "error",
      `network: POST /services/webrec/match failed: fetch failed (${site})`,
    ]);
    expect(rows[1]?.[2]).toMatch(/^unreadable: /);
    expect(status).toBe(3);
  });
});

describe("lines", () => {
  test("tabs and line breaks in a file name or a title become spaces", () => {
    expect(
      formatTsv({
        kind: "match",
        file: "a\tb\nc.wav",
        trackKey: "1",
        title: "Tab\there",
        artist: null,
        offsetMs: 0,
        heardAtMs: 0,
        score: 12,
        ms: 3.4,
        seconds: 3,
      }),
    ).toBe("a b c.wav\t1\tTab here\t-\t0\t12\t3");
  });

  test("the summary", () => {
    const summary = { files: 3, matched: 1, unmatched: 1, errors: 1, ms: 1234.5 };
    expect(formatSummary(summary, false)).toBe("# 3 files: 1 matched, 1 not matched, 1 failed; 1235 ms");
    expect(JSON.parse(formatSummary(summary, true))).toEqual({ summary: { ...summary, ms: 1235 } });
  });
});
