import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import * as v from "valibot";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { tagTotals } from "#origin/db/tag-counts.ts";
import { foldIdentifications, visitorsPerAddressPerTrackPerDay } from "#origin/identifications.ts";
import { recognitionProbesSchema } from "#origin/recognition-index.ts";
import { matchesPerAddressPerMinute } from "#origin/routes/webrec.ts";
import { playlistTracksDocumentSchema } from "#rules/schemas/amapi.ts";
import { eventRetentionDays, type IdentificationEvent } from "#rules/schemas/identification.ts";
import { tagCountSchema } from "#rules/schemas/tagcount.ts";
import { webrecMatchResponseSchema } from "#rules/schemas/webrec.ts";
import { utcDayOf } from "#rules/visitor-hash.ts";
import probesText from "../../origin/catalog/dist/recognition-probes.json?raw";
import { agent, browser, signIn } from "./browser-jar";
import worker from "./built-worker";
import { loadRecognitionStore } from "./recognition-store";

// Identifications counted live (decision 032): the identifications queue's consumer as the worker
// runs it (its `queue` handler with a batch of our making), and the producer end to end: a match
// or a new tag through the site, the queue delivering, the tag count answering one more.

const queueName = "tunewave-identifications";
const dayMs = 86_400_000;
const probes = v.parse(recognitionProbesSchema, JSON.parse(probesText)).probes;
beforeAll(loadRecognitionStore, 60_000);

let tracks: number[] = [];
beforeAll(async () => {
  const rows = await env.DB.prepare("SELECT key FROM tracks ORDER BY key LIMIT 20").all<{ key: number }>();
  tracks = rows.results.map((row) => row.key);
});

let visitors = 0;
/** A visitor hash of its own for each call: the tests never share one by accident. */
function newVisitor(): string {
  visitors += 1;
  return `w:${visitors.toString(16).padStart(32, "0")}`;
}

let addresses = 0;
/** An address hash of its own for each call. */
function newAddress(): string {
  addresses += 1;
  return `a:${addresses.toString(16).padStart(32, "0")}`;
}

/** A recording's sketch of its own for each call: no two agree in any bucket. */
let recordings = 0;
function newRecording(offsetMs: number): { offsetMs: number; sketch: number[] } {
  recordings += 1;
  return { offsetMs, sketch: Array.from({ length: 16 }, (_, bucket) => recordings * 16 + bucket) };
}

function event(overrides: Partial<IdentificationEvent> & { trackKey: number }): IdentificationEvent {
  const at = overrides.at ?? Date.now();
  return {
    id: crypto.randomUUID(),
    country: "GB",
    cityId: 0,
    day: utcDayOf(at),
    visitorHash: newVisitor(),
    addressHash: newAddress(),
    at,
    ...overrides,
  };
}

/** One delivery of `bodies` to the worker's queue handler, and what it acked and retried. */
async function deliver(bodies: unknown[], bindings: typeof env = env) {
  const batch = createMessageBatch(
    queueName,
    bodies.map((body, i) => ({ id: `message-${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, bindings);
  return getQueueResult(batch, ctx);
}

async function live(trackKey: number): Promise<number> {
  const row = await env.DB.prepare("SELECT total FROM live_tag_counts WHERE track_key = ?")
    .bind(trackKey)
    .first<{ total: number }>();
  return row?.total ?? 0;
}

async function daily(trackKey: number, day: string) {
  const rows = await env.DB.prepare(
    "SELECT country, city_id, identifications, visitors FROM daily_identifications WHERE track_key = ? AND day = ? ORDER BY country, city_id",
  )
    .bind(trackKey, day)
    .all();
  return rows.results;
}

function trackAt(index: number): number {
  const key = tracks[index];
  if (key === undefined) throw new Error(`no track ${index}`);
  return key;
}

describe("the consumer", () => {
  test("a redelivered batch counts once, and a batch that repeats some events counts only the new", async () => {
    const track = trackAt(0);
    const first = [event({ trackKey: track }), event({ trackKey: track })];
    expect((await deliver(first)).retryMessages).toEqual([]);
    await deliver(first);
    await deliver([...first, event({ trackKey: track })]);
    expect(await live(track)).toBe(3);
    expect(await daily(track, utcDayOf(Date.now()))).toEqual([
      { country: "GB", city_id: 0, identifications: 3, visitors: 3 },
    ]);
  });

  test("one visitor, one track, one day: every identification is kept, the visitor counts once, in charts and the tag count", async () => {
    const track = trackAt(1);
    const visitor = newVisitor();
    await deliver([
      event({ trackKey: track, visitorHash: visitor }),
      event({ trackKey: track, visitorHash: visitor }),
    ]);
    // In a later batch too.
    await deliver([event({ trackKey: track, visitorHash: visitor })]);
    await deliver([event({ trackKey: track })]);
    expect(await live(track)).toBe(2);
    expect(await daily(track, utcDayOf(Date.now()))).toEqual([
      { country: "GB", city_id: 0, identifications: 4, visitors: 2 },
    ]);
  });

  test("the same visitor counts again on another day, and toward another track", async () => {
    const track = trackAt(2);
    const visitor = newVisitor();
    const today = Date.now();
    const yesterday = today - dayMs;
    await deliver([
      event({ trackKey: track, visitorHash: visitor, at: today }),
      event({ trackKey: track, visitorHash: visitor, at: yesterday }),
      event({ trackKey: trackAt(3), visitorHash: visitor, at: today }),
    ]);
    for (const at of [today, yesterday]) {
      expect(await daily(track, utcDayOf(at))).toEqual([
        { country: "GB", city_id: 0, identifications: 1, visitors: 1 },
      ]);
    }
    expect(await daily(trackAt(3), utcDayOf(today))).toEqual([
      { country: "GB", city_id: 0, identifications: 1, visitors: 1 },
    ]);
  });

  test("each place has its row; a visitor counts at the place of their first identification of the day", async () => {
    const track = trackAt(4);
    const visitor = newVisitor();
    const at = Date.now();
    await deliver([
      event({ trackKey: track, visitorHash: visitor, country: "FR", cityId: 2988507, at: at + 1 }),
      event({ trackKey: track, visitorHash: visitor, country: "GB", cityId: 2643743, at }),
    ]);
    expect(await daily(track, utcDayOf(at))).toEqual([
      { country: "FR", city_id: 2988507, identifications: 1, visitors: 0 },
      { country: "GB", city_id: 2643743, identifications: 1, visitors: 1 },
    ]);
  });

  test("malformed messages are acked and logged, never retried; the others are counted", async () => {
    const track = trackAt(5);
    const warn = vi.spyOn(console, "warn");
    const result = await deliver([
      "not an event",
      { ...event({ trackKey: track }), visitorHash: "0f8fad5b-d9cb-469f-a165-70867728950e" },
      { ...event({ trackKey: track }), day: "2001-01-01" },
      null,
      event({ trackKey: track }),
    ]);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks.sort()).toEqual([
      "message-0",
      "message-1",
      "message-2",
      "message-3",
      "message-4",
    ]);
    expect(warn).toHaveBeenCalledTimes(4);
    expect(await live(track)).toBe(1);
  });

  test("when D1 fails the batch, its valid messages are retried and nothing is counted", async () => {
    const track = trackAt(6);
    const failing = new Proxy(env.DB, {
      get(target, property) {
        if (property === "batch") return () => Promise.reject(new Error("D1 is down"));
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await deliver(["malformed", event({ trackKey: track })], { ...env, DB: failing });
    expect(result.explicitAcks).toEqual(["message-0"]);
    expect(result.retryMessages.map((message: { msgId: string }) => message.msgId)).toEqual(["message-1"]);
    expect(error).toHaveBeenCalled();
    expect(await live(track)).toBe(0);
  });

  test("events past the retention window are not counted, and older rows are deleted", async () => {
    const track = trackAt(7);
    const old = Date.now() - eventRetentionDays * dayMs;
    await env.DB.prepare(
      "INSERT INTO identification_events (id, track_key, country, city_id, day, visitor_hash, at, batch) VALUES (?, ?, 'GB', 0, ?, 'w:old', ?, 'old')",
    )
      .bind(crypto.randomUUID(), track, utcDayOf(old), old)
      .run();
    await deliver([event({ trackKey: track, at: old }), event({ trackKey: track, at: old + dayMs })]);
    expect(await live(track)).toBe(1);
    const kept = await env.DB.prepare("SELECT day FROM identification_events WHERE track_key = ?")
      .bind(track)
      .all<{ day: string }>();
    expect(kept.results.map((row) => row.day)).toEqual([utcDayOf(old + dayMs)]);
  });

  test("the same recording sent again counts once a day, in one batch or later, whoever sends it", async () => {
    const track = trackAt(13);
    const recording = newRecording(41_000);
    const replays = Array.from({ length: 30 }, () => event({ trackKey: track, recording }));
    await deliver(replays.slice(0, 20));
    await deliver(replays.slice(20));
    // A peak edited: the offset moves a little and the sketch agrees in all but two buckets.
    const edited = {
      offsetMs: 41_120,
      sketch: recording.sketch.map((value, bucket) => (bucket < 2 ? -1 : value)),
    };
    await deliver([event({ trackKey: track, recording: edited })]);
    expect(await live(track)).toBe(1);
    expect(await daily(track, utcDayOf(Date.now()))).toEqual([
      { country: "GB", city_id: 0, identifications: 1, visitors: 1 },
    ]);
  });

  test("another recording counts: of another moment, or of the same moment with another sketch, or another day", async () => {
    const track = trackAt(14);
    const recording = newRecording(90_000);
    const yesterday = Date.now() - dayMs;
    await deliver([
      event({ trackKey: track, recording }),
      event({ trackKey: track, recording: { ...recording, offsetMs: 90_000 + 251 } }),
      event({ trackKey: track, recording: newRecording(90_010) }),
      event({ trackKey: track, recording, at: yesterday }),
      // The app's tag has no recording: never a replay.
      event({ trackKey: track }),
    ]);
    expect(await live(track)).toBe(5);
  });

  test("one address counts at most the cap of visitors toward a track a day; other tracks and addresses have their own", async () => {
    const [track, other] = [trackAt(15), trackAt(16)];
    const address = newAddress();
    const forged = Array.from({ length: 60 }, (_, i) =>
      event({ trackKey: track, addressHash: address, recording: newRecording(i * 1000) }),
    );
    await deliver(forged.slice(0, 3));
    await deliver(forged.slice(3));
    await deliver([event({ trackKey: other, addressHash: address }), event({ trackKey: track })]);
    expect(await live(track)).toBe(visitorsPerAddressPerTrackPerDay + 1);
    expect(await live(other)).toBe(1);
    expect(await daily(track, utcDayOf(Date.now()))).toEqual([
      { country: "GB", city_id: 0, identifications: 61, visitors: visitorsPerAddressPerTrackPerDay + 1 },
    ]);
  });

  test("60 identifiers from one address leave a lower-half song of a country's chart out of its top 10: they count as the cap", async () => {
    const seeded = await env.DB.prepare(
      "SELECT track_key FROM country_tag_counts WHERE country = 'AD' ORDER BY total DESC, track_key",
    ).all<{ track_key: number }>();
    const order = seeded.results.map((row) => row.track_key);
    const lowerHalf = order[Math.floor(order.length * 0.75)] ?? 0;
    const address = newAddress();
    await deliver(
      Array.from({ length: 60 }, (_, i) =>
        event({
          trackKey: lowerHalf,
          country: "AD",
          addressHash: address,
          recording: newRecording(i * 1000),
        }),
      ),
    );
    expect(await daily(lowerHalf, utcDayOf(Date.now()))).toEqual([
      { country: "AD", city_id: 0, identifications: 60, visitors: visitorsPerAddressPerTrackPerDay },
    ]);
    await (
      SELF as unknown as { scheduled(options: { scheduledTime: Date; cron: string }): Promise<unknown> }
    ).scheduled({ scheduledTime: new Date(), cron: "*/10 * * * *" });
    const answer = await SELF.fetch(
      "https://tunewave.test/services/amapi/v1/catalog/ad/playlists/ip-country-chart-AD/tracks?limit=200",
    );
    const chart = v
      .parse(playlistTracksDocumentSchema, await answer.json())
      .data.map((song) => Number(song.attributes.shazamKey));
    expect(chart.indexOf(lowerHalf)).toBeGreaterThanOrEqual(10);
  });

  test.each([1, 10, 100])("%i events are folded in the same few statements", async (size) => {
    const track = trackAt(8);
    const bodies = Array.from({ length: size }, (_, i) =>
      event({ trackKey: tracks[(8 + i) % tracks.length] ?? track }),
    );
    const batch = createMessageBatch(
      queueName,
      bodies.map((body, i) => ({ id: `m-${i}`, timestamp: new Date(), attempts: 1, body })),
    );
    const folded = await foldIdentifications(batch, env.DB);
    expect(folded.events).toBe(size);
    expect(folded.statements).toBe(8);
    console.log(
      `${size} events: ${folded.statements} statements (${(folded.statements / size).toFixed(2)} per event), ${folded.rowsWritten} rows written (${(folded.rowsWritten / size).toFixed(2)} per event)`,
    );
  });
});

/** The tag count call, asked once: its answer is cached for a minute after that. */
async function countCall(trackKey: number): Promise<number> {
  const answer = await SELF.fetch(`https://tunewave.test/services/count/v2/web/track/${trackKey}`);
  expect(answer.status).toBe(200);
  return v.parse(tagCountSchema, await answer.json()).total;
}

async function storedTotal(trackKey: number): Promise<number> {
  return (await tagTotals(env.DB, [trackKey])).get(trackKey)?.total ?? 0;
}

/** Waits until the queue has delivered what moves `trackKey`'s count to `total`. */
async function delivered(trackKey: number, total: number): Promise<void> {
  await vi.waitFor(async () => expect(await storedTotal(trackKey)).toBe(total), {
    timeout: 20_000,
    interval: 100,
  });
}

function matchRequest(data: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
  return SELF.fetch("https://tunewave.test/services/webrec/match", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ data, sessionId: crypto.randomUUID(), lang: "en", country: "GB" }),
    ...init,
  });
}

async function storedEvents(trackKey: number) {
  const rows = await env.DB.prepare(
    "SELECT country, city_id, visitor_hash FROM identification_events WHERE track_key = ? ORDER BY at",
  )
    .bind(trackKey)
    .all<{ country: string; city_id: number; visitor_hash: string }>();
  return rows.results;
}

describe("the producer", () => {
  const probe = probes[0];
  const other = probes[1];

  test("a match through the site: the tag count answers one more once the queue delivered, under the vouched webId, in the edge's country", async () => {
    if (!probe) throw new Error("no probe");
    const key = Number(probe.trackKey);
    const before = await storedTotal(key);
    const who = browser();
    expect((await who.fetch("/terms")).status).toBe(200);
    const webId = who.jar.get("webId") ?? "";
    expect(who.jar.get("webIdSig")).toMatch(/^local\.[\w-]{22}$/);
    // The body's country chooses the storefront; the edge says where the visitor is.
    const answer = await who.fetch("/services/webrec/match", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ data: probe.data, sessionId: crypto.randomUUID(), lang: "en", country: "GB" }),
      cf: { country: "LV" },
    } as RequestInit);
    const found = v.parse(webrecMatchResponseSchema, await new Response(answer.body).json());
    expect(found.matches[0]?.trackId).toBe(probe.trackKey);
    await delivered(key, before + 1);
    expect(await countCall(key)).toBe(before + 1);
    const [stored] = await storedEvents(key);
    expect(stored?.country).toBe("LV");
    expect(stored?.visitor_hash).toMatch(/^w:[0-9a-f]{32}$/);
    expect(JSON.stringify(stored)).not.toContain(webId.slice(0, 8));
  });

  test("a webId the client made up, or a voucher edited or another webId's, counts as none: a normal answer, the day's address hash", async () => {
    const sixth = probes[5];
    if (!sixth) throw new Error("no probe");
    const key = Number(sixth.trackKey);
    const who = browser();
    await who.fetch("/terms");
    const voucher = who.jar.get("webIdSig") ?? "";
    const edited = `${voucher.slice(0, -1)}${voucher.endsWith("A") ? "B" : "A"}`;
    const cookies = [
      "webId=0f8fad5b-d9cb-469f-a165-70867728950e",
      `webId=${who.jar.get("webId")}; webIdSig=${edited}`,
      `webId=7c9e6679-7425-40de-944b-e07fc1f90ae7; webIdSig=${voucher}`,
    ];
    for (const [i, cookie] of cookies.entries()) {
      const answer = await matchRequest(sixth.data, { cookie, "cf-connecting-ip": `203.0.113.${i + 1}` });
      expect(answer.status).toBe(200);
      expect(v.parse(webrecMatchResponseSchema, await answer.json()).matches[0]?.trackId).toBe(
        sixth.trackKey,
      );
    }
    await vi.waitFor(async () => expect(await storedEvents(key)).toHaveLength(cookies.length), {
      timeout: 20_000,
      interval: 100,
    });
    expect((await storedEvents(key)).map((event) => event.visitor_hash.slice(0, 2))).toEqual([
      "d:",
      "d:",
      "d:",
    ]);
  });

  test("60 replays of one signature, from 60 addresses and user agents, add one to its tag count", async () => {
    const fifth = probes[4];
    if (!fifth) throw new Error("no probe");
    const key = Number(fifth.trackKey);
    const before = await storedTotal(key);
    const replays = 60;
    for (let sent = 0; sent < replays; sent += 6) {
      await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          const n = sent + i;
          const answer = await matchRequest(fifth.data, {
            "cf-connecting-ip": `192.0.2.${n + 1}`,
            "user-agent": `${agent} replay/${n}`,
          });
          expect(v.parse(webrecMatchResponseSchema, await answer.json()).matches[0]?.trackId).toBe(
            fifth.trackKey,
          );
        }),
      );
    }
    await vi.waitFor(async () => expect(await storedEvents(key)).toHaveLength(replays), {
      timeout: 30_000,
      interval: 200,
    });
    await delivered(key, before + 1);
    expect(await countCall(key)).toBe(before + 1);
  }, 120_000);

  test("over 60 match requests a minute from one address: limitexceeded with Retry-After, nothing matched", async () => {
    const address = { "cf-connecting-ip": "2001:db8:61::1" };
    for (let i = 0; i < matchesPerAddressPerMinute; i++) {
      // Bad requests count too: the limit is read before the body.
      const answer = await SELF.fetch("https://tunewave.test/services/webrec/match", {
        method: "POST",
        headers: { "content-type": "application/json", ...address },
        body: "{}",
      });
      expect(answer.status).toBe(400);
      await answer.arrayBuffer();
    }
    // Another address of the same /64 is the same client.
    const refused = await matchRequest(probe?.data ?? "", { "cf-connecting-ip": "2001:db8:61::ffff" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.json()).toMatchObject({ error: "limitexceeded" });
    const elsewhere = await matchRequest(probe?.data ?? "", { "cf-connecting-ip": "2001:db8:62::1" });
    expect(elsewhere.status).toBe(200);
    await elsewhere.arrayBuffer();
  });

  test("Sec-GPC: the visitor is the day's salted hash, not the webId's; a city a client names is not taken", async () => {
    if (!other) throw new Error("no probe");
    const key = Number(other.trackKey);
    const before = await storedTotal(key);
    const answer = await matchRequest(other.data, {
      cookie: "webId=0f8fad5b-d9cb-469f-a165-70867728950e",
      "sec-gpc": "1",
      "cf-ipcity": "London",
      "cf-ipcountry": "GB",
    });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    await delivered(key, before + 1);
    const [stored] = await storedEvents(key);
    expect(stored?.visitor_hash).toMatch(/^d:[0-9a-f]{32}$/);
    expect(stored?.city_id).not.toBe(2643743);
    // No salt but today's is kept (the isolate remembers today's, which an earlier test may have
    // made in storage this test no longer sees).
    const salts = await env.DB.prepare("SELECT day FROM daily_salts").all<{ day: string }>();
    expect(salts.results.filter((row) => row.day !== utcDayOf(Date.now()))).toEqual([]);
  });

  test("the edge's city is the event's: the city Cloudflare names, in the match's country", async () => {
    const third = probes[2];
    if (!third) throw new Error("no probe");
    const key = Number(third.trackKey);
    const before = await storedTotal(key);
    const answer = await matchRequest(third.data, { "cf-ipcity": "Paris" }, {
      cf: { country: "GB", city: "London" },
    } as RequestInit);
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    await delivered(key, before + 1);
    const [stored] = await storedEvents(key);
    expect(stored).toMatchObject({ country: "GB", city_id: 2643743 });
  });

  test("the app's new tag counts once, a retried one not; a signed-in web match counts once, not once more for its tag", async () => {
    const tagged = trackAt(10);
    const who = browser();
    expect((await signIn(who, `identifications.${Date.now()}@example.com`)).status).toBe(303);
    const appTag = (trackKey: number, recognitionId: string) =>
      who.fetch("/services/account/tags", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ trackKey: String(trackKey), recognitionId, tagTime: Date.now() - 1000 }),
      });
    /**
     * Another identification, counted: once it is, an identification sent before it would have
     * been. A track of its own each time: the visitor counts once a track and day.
     */
    const countedMarker = async (marker: number, recognitionId: string) => {
      const before = await storedTotal(marker);
      expect((await appTag(marker, recognitionId)).status).toBe(201);
      await delivered(marker, before + 1);
    };

    const before = await storedTotal(tagged);
    expect((await appTag(tagged, "app-1")).status).toBe(201);
    await delivered(tagged, before + 1);
    expect((await appTag(tagged, "app-1")).status).toBe(200);
    await countedMarker(trackAt(12), "marker-1");
    expect(await storedTotal(tagged)).toBe(before + 1);

    const fourth = probes[3];
    if (!fourth) throw new Error("no probe");
    const key = Number(fourth.trackKey);
    const matchedBefore = await storedTotal(key);
    const cookie = [...who.jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const answer = await matchRequest(fourth.data, {
      cookie,
      origin: "https://tunewave.test",
      "sec-fetch-site": "same-origin",
    });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    await delivered(key, matchedBefore + 1);
    const tags = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM tags WHERE track_key = ? AND recognition_id LIKE 'web:%'",
    )
      .bind(key)
      .first<{ n: number }>();
    expect(tags?.n).toBe(1);
    await countedMarker(trackAt(17), "marker-2");
    expect(await storedTotal(key)).toBe(matchedBefore + 1);
  });
});

describe("vouched visitors", () => {
  const page = (headers: Record<string, string>) =>
    SELF.fetch("https://tunewave.test/terms", { headers: { "user-agent": agent, ...headers } }).then(
      async (answer) => {
        await answer.arrayBuffer();
        return answer.headers.getSetCookie().map((cookie) => cookie.split(";")[0] ?? "");
      },
    );
  const names = (cookies: string[]) => cookies.map((cookie) => cookie.split("=")[0]).sort();

  test("a new visitor's page gives a webId and its voucher, which no script reads; the next page gives neither", async () => {
    const answer = await SELF.fetch("https://tunewave.test/terms", {
      headers: { "user-agent": agent, "cf-connecting-ip": "192.0.2.200" },
    });
    await answer.arrayBuffer();
    const voucher = answer.headers.getSetCookie().find((cookie) => cookie.startsWith("webIdSig="));
    expect(voucher).toMatch(/; Max-Age=31536000; Path=\/; SameSite=Lax; Secure; HttpOnly$/);
    const cookies = answer.headers.getSetCookie().map((cookie) => cookie.split(";")[0] ?? "");
    expect(names(cookies)).toEqual(["webId", "webIdSig"]);
    expect(await page({ cookie: cookies.join("; "), "cf-connecting-ip": "192.0.2.200" })).toEqual([]);
  });

  test.each([
    ["a robot", { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" }, "/terms"],
    ["a visitor asking not to be tracked", { "sec-gpc": "1" }, "/terms"],
    ["an AMP document", {}, "/amp"],
  ])("%s gets no voucher", async (_, headers, path) => {
    const answer = await SELF.fetch(`https://tunewave.test${path}`, {
      headers: { "user-agent": agent, "cf-connecting-ip": "192.0.2.201", ...headers },
    });
    await answer.arrayBuffer();
    expect(answer.headers.getSetCookie().some((cookie) => cookie.startsWith("webIdSig="))).toBe(false);
  });

  // wrangler.toml's VISITOR_ID_LIMIT, which the pool reads (vitest.worker.config.ts).
  const newVisitorIdsPerAddressPerMinute = 10;

  test(`an address is given ${newVisitorIdsPerAddressPerMinute} new vouched visitors a minute; past them a webId, no voucher`, async () => {
    const address = { "cf-connecting-ip": "2001:db8:77::1" };
    for (let i = 0; i < newVisitorIdsPerAddressPerMinute; i++)
      expect(names(await page(address))).toEqual(["webId", "webIdSig"]);
    // The next one, on another address of the same /64: the same client.
    expect(names(await page({ "cf-connecting-ip": "2001:db8:77::2" }))).toEqual(["webId"]);
    expect(names(await page({ "cf-connecting-ip": "2001:db8:78::1" }))).toEqual(["webId", "webIdSig"]);
  });
});
