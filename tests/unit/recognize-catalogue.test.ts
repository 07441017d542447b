import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, expect, test } from "vitest";
import { decodeAudioFile } from "#origin/catalog/audio-decode.ts";
import {
  addNoise,
  bandPass,
  muLawRoundTrip,
  noise,
  reverberate,
  roomImpulseResponse,
  seededRandom,
} from "#origin/catalog/audio-degrade.ts";
import { encodeWav16, resample } from "#signature/index.ts";
import { main } from "#tools/recognize/recognize.ts";
import { composeTrack, renderTrack } from "./signature-music";

// `npm run recognize -- --local` on what people would feed it: degraded excerpts of catalogue
// recordings (noise, a phone line, a room), music and noise that are in no recording, and a broken
// file, against the embedded origin's index in public/media/recognition/ and the catalogue's titles
// (both built by `npm run catalog`, which `npm test` runs first).

const root = join(import.meta.dirname, "../..");
const excerptSeconds = 12;

const catalogueSchema = v.object({
  tracks: v.array(
    v.object({ key: v.number(), title: v.string(), artist: v.string(), audioFile: v.string() }),
  ),
});

type Excerpt = { file: string; key: string; title: string; artist: string; fromMs: number };

/**
 * Three recordings that share no passage with another one (some of the catalogue's do, see
 * bench/recognition.ts), each degraded its own way and written as a WAV at the rate a recorder of
 * that kind would use.
 */
const degradations = [
  {
    recording: "music/journeys_end.ogg",
    file: "radio-log.wav",
    at: 0.4,
    degrade: (samples: Float32Array, rate: number) => ({
      samples: addNoise(samples, rate, 10, "pink", seededRandom(1)),
      rate,
    }),
  },
  {
    recording: "aftermath_soundtrack/track17.opus",
    file: "phone-call.wav",
    at: 0.3,
    degrade: (samples: Float32Array, rate: number) => ({
      samples: resample(muLawRoundTrip(bandPass(samples, rate), rate), rate, 8000),
      rate: 8000,
    }),
  },
  {
    recording: "music/knalgan_theme.ogg",
    file: "dj-set-part-3.wav",
    at: 0.5,
    degrade: (samples: Float32Array, rate: number) => {
      const room = reverberate(samples, roomImpulseResponse(rate, 0.5, 0, seededRandom(3)));
      return {
        samples: resample(addNoise(room, rate, 15, "pink", seededRandom(4)), rate, 16_000),
        rate: 16_000,
      };
    },
  },
];

let dir: string;
let excerpts: Excerpt[];

async function makeExcerpts(): Promise<Excerpt[]> {
  const catalogue = v.parse(
    catalogueSchema,
    JSON.parse(readFileSync(join(root, "origin/catalog/dist/catalog.json"), "utf8")),
  );
  const made: Excerpt[] = [];
  for (const { recording, file, at, degrade } of degradations) {
    const track = catalogue.tracks.find((candidate) => candidate.audioFile.endsWith(`/${recording}`));
    if (!track) throw new Error(`${recording} is not in the catalogue`);
    const { samples, sampleRate } = await decodeAudioFile(track.audioFile);
    const from = Math.floor(samples.length * at);
    const excerpt = degrade(samples.subarray(from, from + excerptSeconds * sampleRate), sampleRate);
    writeFileSync(join(dir, file), encodeWav16(excerpt.samples, excerpt.rate));
    made.push({
      file,
      key: String(track.key),
      title: track.title,
      artist: track.artist,
      fromMs: (from / sampleRate) * 1000,
    });
  }
  return made;
}

/** Notes in no recording of the catalogue, with a little hiss; and a room with nothing playing. */
function writeNegatives(): string[] {
  const rate = 44_100;
  const music = renderTrack(composeTrack(2026, excerptSeconds + 1), {
    fromSecond: 0,
    seconds: excerptSeconds,
    sampleRate: rate,
  });
  writeFileSync(
    join(dir, "voice-memo.wav"),
    encodeWav16(addNoise(music, rate, 20, "pink", seededRandom(5)), rate),
  );
  const hiss = noise(excerptSeconds * rate, rate, "pink", seededRandom(6));
  writeFileSync(
    join(dir, "room-tone.wav"),
    encodeWav16(
      hiss.map((x) => x * 0.05),
      rate,
    ),
  );
  return ["voice-memo.wav", "room-tone.wav"];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tunewave-recognize-catalogue-"));
  excerpts = await makeExcerpts();
  writeNegatives();
  // A recording cut off after its first few kilobytes, as a failed copy leaves it.
  const first = readFileSync(join(root, "public/media/previews", `${excerpts[0]?.key}.ogg`));
  writeFileSync(join(dir, "cut-off.ogg"), first.subarray(0, 3000));
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(argv, {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    cwd: dir,
  });
  return { status, lines: out.join("").split("\n").slice(0, -1), stderr: err.join("") };
}

function expectMatched(row: string[] | undefined, excerpt: Excerpt | undefined) {
  if (!row || !excerpt) throw new Error("missing line");
  expect(row.slice(0, 4)).toEqual([excerpt.file, excerpt.key, excerpt.title, excerpt.artist]);
  expect(Math.abs(Number(row[4]) - excerpt.fromMs)).toBeLessThan(100);
  expect(Number(row[5])).toBeGreaterThan(0);
  expect(row[6]).toMatch(/^\d+$/);
}

test("degraded excerpts find their recordings, the rest nothing, the broken file an error: exit 1", async () => {
  const files = [
    ...excerpts.map((excerpt) => excerpt.file),
    "voice-memo.wav",
    "room-tone.wav",
    "cut-off.ogg",
  ];
  const { status, lines, stderr } = await run(["--local", ...files]);
  const rows = lines.map((line) => line.split("\t"));
  for (const [i, excerpt] of excerpts.entries()) expectMatched(rows[i], excerpt);
  expect(rows[3]?.slice(0, 6)).toEqual(["voice-memo.wav", "-", "-", "-", "-", "-"]);
  expect(rows[4]?.slice(0, 6)).toEqual(["room-tone.wav", "-", "-", "-", "-", "-"]);
  expect(rows[5]?.slice(0, 2)).toEqual(["cut-off.ogg", "error"]);
  expect(rows[5]?.[2]).toMatch(/^corrupt: /);
  expect(lines[6]).toMatch(/^# 6 files: 3 matched, 2 not matched, 1 failed; \d+ ms$/);
  expect(lines).toHaveLength(7);
  expect(stderr).toBe("");
  expect(status).toBe(1);
}, 60_000);

test("--json, every file read: exit 0", async () => {
  const files = [...excerpts.map((excerpt) => excerpt.file), "voice-memo.wav"];
  const { status, lines } = await run(["--local", "--json", ...files]);
  const parsed = lines.map((line) => JSON.parse(line));
  for (const [i, excerpt] of excerpts.entries()) {
    expect(parsed[i]).toMatchObject({
      file: excerpt.file,
      trackKey: excerpt.key,
      title: excerpt.title,
      artist: excerpt.artist,
    });
    expect(parsed[i].score).toBeGreaterThan(0);
    expect([3, 6, 9, 12]).toContain(parsed[i].seconds);
  }
  expect(parsed[3]).toMatchObject({ file: "voice-memo.wav", trackKey: null, score: null, seconds: 12 });
  expect(parsed[4]).toMatchObject({ summary: { files: 4, matched: 3, unmatched: 1, errors: 0 } });
  expect(status).toBe(0);
}, 60_000);

test("a memo whose song starts after 14 s of talk-like noise is found later in the file", async () => {
  const excerpt = excerpts[0];
  if (!excerpt) throw new Error("no excerpt");
  const rate = 16_000;
  const decoded = await decodeAudioFile(join(dir, excerpt.file));
  const song = resample(decoded.samples, decoded.sampleRate, rate);
  const talk = noise(14 * rate, rate, "brown", seededRandom(8)).map((x) => x * 0.1);
  const memo = new Float32Array(talk.length + song.length);
  memo.set(talk);
  memo.set(song, talk.length);
  writeFileSync(join(dir, "late-start.wav"), encodeWav16(memo, rate));
  const { status, lines } = await run(["--local", "--json", "late-start.wav"]);
  const line = JSON.parse(lines[0] ?? "");
  // The beginning (0 to 12 s) is noise; the stretch from 12 s holds 2 s of it, then the song.
  expect(line).toMatchObject({ trackKey: excerpt.key, heardAtMs: 12_000 });
  expect(Math.abs(line.offsetMs - (excerpt.fromMs - 2000))).toBeLessThan(100);
  expect(status).toBe(0);
}, 60_000);

/** The environment without INIT_CWD, which npm sets to where it is run (here: the test's folder). */
function npmEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.INIT_CWD;
  return env;
}

test("npm run recognize, from the folder the files are in", () => {
  const result = spawnSync(
    "npm",
    [
      "--prefix",
      root,
      "run",
      "--silent",
      "recognize",
      "--",
      "--local",
      "--seconds",
      "6",
      "radio-log.wav",
      "cut-off.ogg",
    ],
    { cwd: dir, encoding: "utf8", env: npmEnvironment() },
  );
  const rows = result.stdout
    .trim()
    .split("\n")
    .map((line) => line.split("\t"));
  expect(rows[0]?.slice(0, 2)).toEqual(["radio-log.wav", excerpts[0]?.key]);
  expect(rows[1]?.slice(0, 2)).toEqual(["cut-off.ogg", "error"]);
  expect(rows[2]?.[0]).toMatch(/^# 2 files: 1 matched, 0 not matched, 1 failed/);
  expect(result.status).toBe(1);
}, 60_000);
