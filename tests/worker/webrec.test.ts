import { applyD1Migrations, env, SELF } from "cloudflare:test";
import * as v from "valibot";
import { beforeAll, describe, expect, test } from "vitest";
import { recognitionProbesSchema } from "#origin/recognition-index.ts";
import { webrecMaxBodyBytes } from "#origin/routes/webrec.ts";
import { recognitionStore, storedIndex } from "#recognizer/store.ts";
import { serviceErrorSchema } from "#rules/schemas/common.ts";
import { recognizerMatchAnswerSchema, recognizerSummaryAnswerSchema } from "#rules/schemas/recognizer.ts";
import { trackSchema } from "#rules/schemas/track.ts";
import { webrecMatchResponseSchema, webrecSignatureSummarySchema } from "#rules/schemas/webrec.ts";
import {
  computeSignature,
  decodeSignatureBase64,
  encodeSignatureBase64,
  FFT_SIZE,
  HOP_SIZE,
  matchSignature,
  matchSignatureIn,
  PEAK_BIN_FRACTION,
  type PostingsStore,
  SIGNATURE_MAGIC,
  SIGNATURE_MAX_BASE64_LENGTH,
  SIGNATURE_SAMPLE_RATE,
  SIGNATURE_VERSION,
  SKEW_FACTORS,
  signatureSketch,
} from "#signature/index.ts";
import probesText from "../../origin/catalog/dist/recognition-probes.json?raw";
import { loadRecognitionShards, loadRecognitionStore, publishedIndex } from "./recognition-store";

// The match service through the whole site: the Worker's /services proxy, then the embedded origin
// answering from the recognition store (D1, loaded from the index the builder published).

const probes = v.parse(recognitionProbesSchema, JSON.parse(probesText)).probes;

beforeAll(loadRecognitionStore, 60_000);

function post(path: string, body: unknown): Promise<Response> {
  return SELF.fetch(`https://tunewave.test/services/webrec/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function request(data: string) {
  return { data, sessionId: "0f6f2c1e-5b8a-4c7e-9d2a-1b3c4d5e6f70", lang: "en", country: "GB" };
}

async function matches(data: string) {
  const response = await post("match", request(data));
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  return v.parse(webrecMatchResponseSchema, await response.json()).matches;
}

async function expectRefused(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  const body = v.parse(serviceErrorSchema, await response.json());
  expect(body.error).toBe("invalidparam");
  return body;
}

/** Tones gliding over noise: music-like peaks that are in no recording of the catalogue. */
/**
 * What Chromium's fake microphone sounded like at the 6 s checkpoint of a browser test: a 400 Hz
 * square wave's beep every half second, 5 frequencies in 55 peaks. The index matched it to a song.
 */
const chromiumBeeps =
  "VFdTRwEIAAQAAQAAQB8AALYAAAA3AAAADpgBAM0EAAEIADQLAGcOEJgBAM0EAAEIADQLAGcOD5gBAM0EAAEIADQLAGcOEJgBAM0EAAEIADQLAGcOEJgBAM0EAAEIADQLAGcOEJgBAM0EAAEIADQLAGcOD5gBAM0EAAEIADQLAGcOEJgBAM0EAAEIADQLAGcOEJgBAM0EAAEIADQLAGcOD5gBAM0EAAEIADQLAGcOEJgBAM0EAAEIADQLAGcO";

/** A square wave's `beepMs` beeps every `periodMs`, starting `phaseMs` into the period. */
function beeps(seconds: number, sampleRate: number, phaseMs: number, beepMs = 20, periodMs = 500) {
  const samples = new Float32Array(seconds * sampleRate);
  for (let i = 0; i < samples.length; i++) {
    if (((i * 1000) / sampleRate + phaseMs) % periodMs >= beepMs) continue;
    samples[i] = Math.floor((2 * 400 * i) / sampleRate) % 2 === 0 ? 0.3 : -0.3;
  }
  return samples;
}

function unknownAudio(seconds: number, sampleRate: number): Float32Array {
  const samples = new Float32Array(seconds * sampleRate);
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648 - 0.5;
  };
  for (let i = 0; i < samples.length; i++) {
    const t = i / sampleRate;
    const note = 220 * 2 ** (Math.floor(t * 3) / 7);
    samples[i] =
      0.3 * Math.sin(2 * Math.PI * note * t) +
      0.2 * Math.sin(2 * Math.PI * (note * 1.51 + 40 * Math.sin(t)) * t) +
      0.05 * random();
  }
  return samples;
}

/** A signature header that claims more frames than the longest recording allowed. */
function overlongSignature(): string {
  const bytes = new Uint8Array(24);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) bytes[i] = SIGNATURE_MAGIC.charCodeAt(i);
  view.setUint8(4, SIGNATURE_VERSION);
  view.setUint8(5, PEAK_BIN_FRACTION);
  view.setUint16(6, FFT_SIZE, true);
  view.setUint16(8, HOP_SIZE, true);
  view.setUint32(12, SIGNATURE_SAMPLE_RATE, true);
  view.setUint32(16, 0xffffff, true);
  return btoa(String.fromCharCode(...bytes));
}

/** The hand-made signature: 2 700 peaks spread over 938 frames (30 s), under the size limit. */
function denseSignature(): string {
  const frames = Uint32Array.from({ length: 2700 }, (_, i) => Math.floor((i * 938) / 2700));
  // Within a frame, frequencies rising 40 bins apart.
  const bins = Uint16Array.from(frames, (frame, i) => {
    let k = 0;
    while (i - k > 0 && frames[i - k - 1] === frame) k++;
    return (20 + 40 * k) * PEAK_BIN_FRACTION;
  });
  return encodeSignatureBase64({
    sampleRate: SIGNATURE_SAMPLE_RATE,
    fftSize: FFT_SIZE,
    hop: HOP_SIZE,
    frameCount: 938,
    frames,
    bins,
  });
}

describe("POST /services/webrec/match", () => {
  test("there are probes to send, made from several recordings", () => {
    expect(probes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(probes.map((probe) => probe.trackKey)).size).toBe(probes.length);
  });

  test.each(probes.map((probe) => [probe.trackKey, probe.fromMs, probe]))(
    "a noisy excerpt of track %s from %d ms matches that track, where it was cut",
    async (_key, _from, probe) => {
      const found = await matches(probe.data);
      expect(found).toHaveLength(1);
      const [match] = found;
      const track = await SELF.fetch(`https://tunewave.test/services/track/v1/en/GB/web/${probe.trackKey}`);
      const { key, alias } = v.parse(trackSchema, await track.json());
      expect(match?.trackId).toBe(probe.trackKey);
      expect(match?.weburl).toBe(`/track/${key}/${alias}`);
      expect(Math.abs((match?.offset ?? Number.NaN) - probe.fromMs)).toBeLessThan(100);
      expect(Math.abs(match?.timeskew ?? Number.NaN)).toBeLessThan(0.005);
      expect(Math.abs(match?.frequencyskew ?? Number.NaN)).toBeLessThan(0.005);
    },
  );

  test("audio that is in no recording answers an empty list", async () => {
    for (const seconds of [3, 12]) {
      const data = encodeSignatureBase64(computeSignature(unknownAudio(seconds, 16000), 16000));
      expect(await matches(data), `${seconds} s`).toEqual([]);
    }
  });

  test("Chromium's fake microphone, a beep every half second, answers an empty list", async () => {
    expect(await matches(chromiumBeeps)).toEqual([]);
  });

  test("silence answers an empty list", async () => {
    const data = encodeSignatureBase64(computeSignature(new Float32Array(6 * 8000), 8000));
    expect(await matches(data)).toEqual([]);
  });

  test.each([
    ["a body that is not JSON", "{data:"],
    ["no data", { sessionId: "abc", lang: "en", country: "GB" }],
    ["data that is not base64", request("not base64!")],
    ["empty data", request("")],
    ["base64 that is not a signature", request(btoa("RIFF....WAVEfmt garbage"))],
    ["a truncated signature", request((probes[0]?.data ?? "").slice(0, 40))],
    [
      "two peaks of one frame at one frequency",
      request(
        encodeSignatureBase64({
          sampleRate: 8000,
          fftSize: 1024,
          hop: 256,
          frameCount: 10,
          frames: Uint32Array.of(2, 2),
          bins: Uint16Array.of(400, 400),
        }),
      ),
    ],
    ["a bad session id", { ...request(probes[0]?.data ?? ""), sessionId: "a b" }],
    ["an unknown language", { ...request(probes[0]?.data ?? ""), lang: "xx" }],
    ["an unknown country", { ...request(probes[0]?.data ?? ""), country: "ZZ" }],
    ["a number for data", { ...request(""), data: 42 }],
  ])("%s answers 400", async (_name, body) => {
    await expectRefused(await post("match", body), 400);
  });

  test("a signature denser than a recording can be answers 400 with a fixed message", async () => {
    const data = denseSignature();
    expect(data.length).toBeLessThanOrEqual(SIGNATURE_MAX_BASE64_LENGTH);
    const body = await expectRefused(await post("match", request(data)), 400);
    expect(body.message).toBe("Signature denser than a recording can be");
    // Nothing of the input echoed: no count of its frames or peaks.
    expect(JSON.stringify(body)).not.toMatch(/938|2700|2 700/);
  });

  test.each([
    ["data longer than the largest signature", () => request("A".repeat(SIGNATURE_MAX_BASE64_LENGTH + 4))],
    [
      "a body longer than a request can be",
      () => ({ ...request(probes[0]?.data ?? ""), padding: "x".repeat(webrecMaxBodyBytes) }),
    ],
    ["a signature longer than a recording may be", () => request(overlongSignature())],
  ])("%s answers 413", async (_name, body) => {
    await expectRefused(await post("match", body()), 413);
  });
});

describe("the recognition store", () => {
  /**
   * The store over RECOGNITION (or over these shards), counting its calls: each is one wave of
   * queries, one a shard (a batch, for the first).
   */
  function countingStore(shards: readonly D1Database[] = [env.RECOGNITION]) {
    const store = recognitionStore(shards);
    const trips = { count: 0 };
    const counted: PostingsStore = {
      lookup: (request) => {
        trips.count++;
        return store.lookup(request);
      },
      trackKey: (track) => {
        trips.count++;
        return store.trackKey(track);
      },
    };
    return { store: counted, trips };
  }

  test("holds the index the builder published", async () => {
    const published = await publishedIndex();
    expect(await storedIndex(env.RECOGNITION)).toEqual({ sha256: published.sha256, shard: 0, shards: 1 });
  });

  test("answers every probe as the index loaded whole does, in a bounded number of round trips", async () => {
    const { index } = await publishedIndex();
    const signatures = [
      ...probes.map((probe) => decodeSignatureBase64(probe.data)),
      computeSignature(unknownAudio(12, 16000), 16000),
    ];
    for (const signature of signatures) {
      const { store, trips } = countingStore();
      expect(await matchSignatureIn(store, signature)).toEqual(matchSignature(index, signature));
      // Sizes, then postings, for each speed scanned, a verification and two alignments; then the
      // track's key.
      expect(trips.count).toBeLessThanOrEqual(2 * (SKEW_FACTORS.length + 3) + 1);
    }
  });

  test("a beep or a steady tone, at any start and length, matches no song and reads nothing", async () => {
    const signatures = [decodeSignatureBase64(chromiumBeeps)];
    for (const phaseMs of [0, 100, 200, 300, 400])
      for (const seconds of [3, 6, 12])
        signatures.push(computeSignature(beeps(seconds, 16000, phaseMs), 16000));
    for (const [index, signature] of signatures.entries()) {
      const { store, trips } = countingStore();
      expect(await matchSignatureIn(store, signature), `signature ${index}`).toBeNull();
      expect(trips.count).toBe(0);
    }
  });

  test("answers a bucket's size without its entries, and its entries when asked for them", async () => {
    const { index } = await publishedIndex();
    const size = (hash: number) => (index.offsets[hash + 1] as number) - (index.offsets[hash] as number);
    const bucket = (hash: number) => [
      ...index.entries.subarray(index.offsets[hash], index.offsets[hash + 1]),
    ];
    // The largest bucket that votes, the smallest that does not, and a hash in no recording.
    let kept = -1;
    let left = -1;
    let absent = -1;
    for (let hash = 0; hash + 1 < index.offsets.length; hash++) {
      const n = size(hash);
      if (n > 0 && n <= index.commonBucketSize && (kept < 0 || n > size(kept))) kept = hash;
      if (n > index.commonBucketSize && (left < 0 || n < size(left))) left = hash;
      if (n === 0 && absent < 0) absent = hash;
    }
    expect(Math.min(kept, left, absent)).toBeGreaterThanOrEqual(0);
    const store = recognitionStore([env.RECOGNITION]);
    const sized = await store.lookup({ hashes: [kept, left, absent], read: "sizes" });
    expect([kept, left, absent].map((hash) => sized.size(hash))).toEqual([size(kept), size(left), 0]);
    expect(sized.postings(kept)).toHaveLength(0);
    const read = await store.lookup({ hashes: [kept, left], read: "postings" });
    expect([...read.postings(kept)]).toEqual(bucket(kept));
    expect([...read.postings(left)]).toEqual(bucket(left));
    // An answer replaces the last: a match holds one step's postings at a time.
    const next = await store.lookup({ hashes: [left], read: "postings" });
    expect(next.postings(kept)).toHaveLength(0);
  });

  test("reads a step's postings in queries of at most 2^17 entries, one after the other", async () => {
    const { index } = await publishedIndex();
    const size = (hash: number) => (index.offsets[hash + 1] as number) - (index.offsets[hash] as number);
    // The largest buckets, until three queries' worth: D1 answers each query as one JSON text.
    const hashes = Array.from({ length: index.offsets.length - 1 }, (_, hash) => hash)
      .filter((hash) => size(hash) > 0)
      .sort((a, b) => size(b) - size(a));
    const chosen: number[] = [];
    let entries = 0;
    for (const hash of hashes) {
      if (entries > 3 * 2 ** 17) break;
      chosen.push(hash);
      entries += size(hash);
    }
    // Each query's hashes, as the store sends them, and how many are in flight at once.
    const queries: number[][] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const counted = new Proxy(env.RECOGNITION, {
      get(target, key) {
        if (key !== "prepare") return Reflect.get(target, key, target);
        return (sql: string) => {
          const statement = target.prepare(sql);
          return new Proxy(statement, {
            get(own, name) {
              if (name !== "bind") return Reflect.get(own, name, own);
              return (...values: unknown[]) => {
                const bound = own.bind(...values);
                if (!sql.includes("hex(entries)")) return bound;
                queries.push(JSON.parse(String(values[0])) as number[]);
                return {
                  raw: async () => {
                    mostInFlight = Math.max(mostInFlight, ++inFlight);
                    try {
                      return await bound.raw();
                    } finally {
                      inFlight--;
                    }
                  },
                };
              };
            },
          });
        };
      },
    });
    const store = recognitionStore([counted]);
    await store.lookup({ hashes: chosen, read: "sizes" });
    const read = await store.lookup({ hashes: chosen, read: "postings" });
    for (const hash of chosen)
      expect([...read.postings(hash)]).toEqual([
        ...index.entries.subarray(index.offsets[hash], index.offsets[hash + 1]),
      ]);
    expect(queries.length).toBeGreaterThanOrEqual(3);
    expect(queries.flat()).toEqual(chosen);
    for (const query of queries) {
      const total = query.reduce((sum, hash) => sum + size(hash), 0);
      expect(query.length === 1 || total <= 2 ** 17).toBe(true);
    }
    expect(mostInFlight).toBe(1);
  });

  describe("split by hash over several databases", () => {
    const spare = () => [env.RECOGNITION_1, env.RECOGNITION_2, env.RECOGNITION_3];
    beforeAll(async () => {
      for (const db of spare()) await applyD1Migrations(db, env.TEST_RECOGNITION_MIGRATIONS);
    });
    const signatures = () => [
      ...probes.map((probe) => decodeSignatureBase64(probe.data)),
      computeSignature(unknownAudio(12, 16000), 16000),
      computeSignature(unknownAudio(3, 16000), 16000),
    ];

    test.each([2, 3])(
      "in %d shards answers every probe as one database and the index loaded whole do, in as many waves",
      async (count) => {
        const { index } = await publishedIndex();
        const shards = spare().slice(0, count);
        await loadRecognitionShards(shards);
        expect(await Promise.all(shards.map(storedIndex))).toEqual(
          shards.map((_, shard) => ({ sha256: expect.any(String), shard, shards: count })),
        );
        for (const signature of signatures()) {
          const one = countingStore();
          const split = countingStore(shards);
          const answer = await matchSignatureIn(split.store, signature);
          expect(answer).toEqual(await matchSignatureIn(one.store, signature));
          expect(answer).toEqual(matchSignature(index, signature));
          expect(split.trips.count).toBe(one.trips.count);
        }
      },
      120_000,
    );

    test("shards of another index, or of another count, or not loaded, answer an error, never a match", async () => {
      const [first, second, third] = spare() as [D1Database, D1Database, D1Database];
      await loadRecognitionShards([first, second]);
      const signature = decodeSignatureBase64(probes[0]?.data ?? "");
      expect(await matchSignatureIn(recognitionStore([first, second]), signature)).not.toBeNull();
      const setMeta = (db: D1Database, key: string, value: string) =>
        db.prepare("UPDATE recognition_meta SET value = ?2 WHERE key = ?1").bind(key, value).run();
      const refused = (shards: D1Database[], message: RegExp) =>
        expect(matchSignatureIn(recognitionStore(shards), signature)).rejects.toThrow(message);
      // Two shards read as one store of three (a third database bound), or in the wrong order.
      await refused([first, second, third], /shard 0 of 2, not of 3|not loaded/);
      await refused([second, first], /holds shard 1 of 2/);
      await refused([first], /holds shard 0 of 2, not of 1/);
      // A shard of another index.
      await setMeta(second, "sha256", "0".repeat(64));
      await refused([first, second], /another index/);
      // A shard that says it is one of three.
      await setMeta(second, "shards", "3");
      await refused([first, second], /shard 1 of 3, not of 2/);
      // A shard whose load stopped before its meta.
      await second.prepare("DELETE FROM recognition_meta").run();
      await refused([first, second], /shard 1 not loaded/);
    }, 60_000);
  });

  /** The store's failure: 503 serviceerror, Retry-After, a fixed message; the cause is only logged. */
  async function expectStoreUnavailable(response: Response, cause: RegExp) {
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const text = await response.text();
    const body = v.parse(serviceErrorSchema, JSON.parse(text));
    expect(body).toEqual({ error: "serviceerror", message: "Recognition store unavailable" });
    expect(text).not.toMatch(cause);
  }

  test("a failing database is a store outage: 503 with Retry-After, nothing of D1's error", async () => {
    const rename = (from: string, to: string) =>
      env.RECOGNITION.prepare(`ALTER TABLE ${from} RENAME TO ${to}`).run();
    await rename("recognition_postings", "recognition_postings_away");
    // The cause is logged in the recognizer's isolate, out of this test's sight
    // (tests/unit/webrec-failure.test.ts checks the log).
    try {
      await expectStoreUnavailable(
        await post("match", request(probes[0]?.data ?? "")),
        /no such table|D1|SQL/i,
      );
    } finally {
      await rename("recognition_postings_away", "recognition_postings");
    }
    expect(await matches(probes[0]?.data ?? "")).toHaveLength(1);
  });

  test("a store that holds no index is a store outage, not a 500 or a false answer", async () => {
    await env.RECOGNITION.prepare("DELETE FROM recognition_meta").run();
    await expectStoreUnavailable(await post("match", request(probes[0]?.data ?? "")), /not loaded|shard/);
  });
});

describe("the recognizer Worker, through the site's service binding", () => {
  test("answers a probe matched, with where in which track and the signature's sketch", async () => {
    const probe = probes[0];
    if (!probe) throw new Error("no probe");
    const answer = v.parse(recognizerMatchAnswerSchema, await env.RECOGNIZER.match(probe.data));
    expect(answer).toMatchObject({ outcome: "matched", trackKey: Number(probe.trackKey) });
    const expected = signatureSketch(decodeSignatureBase64(probe.data));
    expect(answer.outcome === "matched" && answer.sketch).toEqual(expected);
  });

  test.each([
    [
      "audio in no recording",
      () => encodeSignatureBase64(computeSignature(unknownAudio(6, 16_000), 16_000)),
      { outcome: "nomatch" },
    ],
    [
      "data that is no signature",
      () => btoa("not a signature at all"),
      { outcome: "refused", reason: "invalid" },
    ],
    [
      "a header longer than a recording may be",
      overlongSignature,
      { outcome: "refused", reason: "toolarge" },
    ],
    [
      "the issue's dense signature",
      denseSignature,
      { outcome: "refused", reason: "invalid", message: "Signature denser than a recording can be" },
    ],
  ])("answers %s in its contract", async (_name, data, expected) => {
    const answer = v.parse(recognizerMatchAnswerSchema, await env.RECOGNIZER.match(data()));
    expect(answer).toMatchObject(expected);
  });

  test("decodes for returnSig without reading the store", async () => {
    await env.RECOGNITION.prepare("DELETE FROM recognition_meta").run();
    const answer = v.parse(
      recognizerSummaryAnswerSchema,
      await env.RECOGNIZER.summary(probes[0]?.data ?? ""),
    );
    expect(answer.outcome).toBe("decoded");
  });
});

describe("POST /services/webrec/returnSig", () => {
  test("answers the decoded signature: its length and every peak", async () => {
    const probe = probes[0];
    if (!probe) throw new Error("no probe");
    const response = await post("returnSig", request(probe.data));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const summary = v.parse(webrecSignatureSummarySchema, await response.json());
    const signature = decodeSignatureBase64(probe.data);
    expect(summary.peakCount).toBe(signature.frames.length);
    expect(summary.signature).toHaveLength(signature.frames.length);
    // Whole analysis frames only: up to one FFT window (128 ms) short of the excerpt.
    expect(summary.durationMs).toBeGreaterThan(probe.seconds * 1000 - 130);
    expect(summary.durationMs).toBeLessThanOrEqual(probe.seconds * 1000);
    for (const [timeMs, frequencyHz] of summary.signature) {
      expect(timeMs).toBeLessThanOrEqual(summary.durationMs);
      expect(frequencyHz).toBeGreaterThan(0);
      expect(frequencyHz).toBeLessThanOrEqual(summary.sampleRate / 2);
    }
  });

  test("refuses what match refuses", async () => {
    await expectRefused(await post("returnSig", request("not base64!")), 400);
    await expectRefused(await post("returnSig", request("A".repeat(SIGNATURE_MAX_BASE64_LENGTH + 4))), 413);
  });
});
