import { env } from "cloudflare:test";
import * as v from "valibot";
import { beforeAll, describe, expect, test } from "vitest";
import { sha256 } from "#origin/accounts.ts";
import { recognitionProbesSchema } from "#origin/recognition-index.ts";
import {
  earliestTagTime,
  libraryCountSchema,
  noMorePages,
  tagListSchema,
  tagPageSize,
} from "#rules/library.ts";
import { webrecMatchResponseSchema } from "#rules/schemas/webrec.ts";
import probesText from "../../origin/catalog/dist/recognition-probes.json?raw";
import { type Browser, browser, signIn } from "./browser-jar";
import { loadRecognitionStore } from "./recognition-store";

// My Library in the account service, through the site's /services proxy inside workerd: paging,
// the count, removal and undo, the app's tags, tagging a web match, and who may see what.

const probes = v.parse(recognitionProbesSchema, JSON.parse(probesText)).probes;
// A web match tags the song: the match service answers from the recognition store.
beforeAll(loadRecognitionStore, 60_000);
const trackKeys = [...new Set(probes.map((probe) => probe.trackKey))];
let people = 0;

async function signedIn(): Promise<Browser> {
  people += 1;
  const who = browser();
  const landed = await signIn(who, `library.${people}.${Date.now()}@example.com`);
  expect(landed.status).toBe(303);
  expect(who.jar.has("tw_session")).toBe(true);
  return who;
}

const json = { "content-type": "application/json" };

function appTag(who: Browser, recognitionId: string, tagTime: number, trackKey = trackKeys[0] ?? "") {
  return who.fetch("/services/account/tags", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ trackKey, recognitionId, tagTime }),
  });
}

async function list(who: Browser, query = "") {
  const answer = await who.fetch(`/services/account/tags${query}`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("Cache-Control")).toBe("no-store");
  return v.parse(tagListSchema, await answer.json());
}

async function count(who: Browser) {
  const answer = await who.fetch("/services/account/tags/count");
  expect(answer.status).toBe(200);
  return v.parse(libraryCountSchema, await answer.json()).count;
}

describe("the tags list", () => {
  test("45 tags page as 20 + 20 + 5, newest first, and the last page says start -1", async () => {
    const who = await signedIn();
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 45; i++) {
      const answer = await appTag(who, `page-${i}`, base + i * 60_000, trackKeys[i % trackKeys.length]);
      expect(answer.status).toBe(201);
    }
    const first = await list(who);
    expect(first.tags).toHaveLength(tagPageSize);
    expect(first.start).toBe(20);
    const second = await list(who, `?token=${first.token}`);
    expect(second.tags).toHaveLength(20);
    expect(second.start).toBe(40);
    const third = await list(who, `?token=${second.token}`);
    expect(third.tags).toHaveLength(5);
    expect(third.start).toBe(noMorePages);
    expect(third.token).toBeUndefined();
    const times = [...first.tags, ...second.tags, ...third.tags].map((tag) => tag.timestamp);
    expect(times).toEqual(Array.from({ length: 45 }, (_, i) => base + (44 - i) * 60_000));
    expect(new Set([...first.tags, ...second.tags, ...third.tags].map((tag) => tag.tagid)).size).toBe(45);
    expect(await count(who)).toBe(45);
    // Every page carries the count (the library page's one call for both).
    expect([first.count, second.count, third.count]).toEqual([45, 45, 45]);
  });

  test("an empty library, and a page after the last tag shown, still say how many tags there are", async () => {
    const who = await signedIn();
    expect(await list(who)).toEqual({ tags: [], start: noMorePages, count: 0 });
    for (let i = 0; i < 3; i++) await appTag(who, `past-${i}`, Date.UTC(2026, 2, 1 + i));
    const first = await list(who, "?limit=2");
    expect(first.tags).toHaveLength(2);
    const last = (await list(who, `?limit=2&token=${first.token}`)).tags[0];
    if (!last) throw new Error("no last tag");
    // The only tag of the second page removed: that page is now empty, and the count is 2.
    expect((await who.fetch(`/services/account/tags/${last.tagid}/hide`, { method: "POST" })).status).toBe(
      200,
    );
    expect(await list(who, `?limit=2&token=${first.token}`)).toEqual({
      tags: [],
      start: noMorePages,
      count: 2,
    });
  });

  test("a removed (HIDDEN) tag leaves the list and the count, and its undo brings it back", async () => {
    const who = await signedIn();
    for (const i of [1, 2, 3]) await appTag(who, `hide-${i}`, Date.UTC(2026, 1, i));
    const before = await list(who);
    const middle = before.tags[1];
    if (!middle) throw new Error("no tag");
    const hidden = await who.fetch(`/services/account/tags/${middle.tagid}/hide`, { method: "POST" });
    expect(hidden.status).toBe(200);
    const after = await list(who);
    expect(after.tags.map((tag) => tag.tagid)).toEqual([before.tags[0]?.tagid, before.tags[2]?.tagid]);
    expect(await count(who)).toBe(2);
    expect(after.count).toBe(2);
    // A repeated removal finds nothing to remove.
    expect((await who.fetch(`/services/account/tags/${middle.tagid}/hide`, { method: "POST" })).status).toBe(
      404,
    );
    const restored = await who.fetch(`/services/account/tags/${middle.tagid}/restore`, { method: "POST" });
    expect(restored.status).toBe(200);
    expect((await list(who)).tags.map((tag) => tag.tagid)).toEqual(before.tags.map((tag) => tag.tagid));
  });

  test("a removed tag is deleted for good a day later", async () => {
    const who = await signedIn();
    await appTag(who, "old", Date.UTC(2026, 2, 1));
    await appTag(who, "other", Date.UTC(2026, 2, 2));
    const [, old] = (await list(who)).tags;
    if (!old) throw new Error("no tag");
    await who.fetch(`/services/account/tags/${old.tagid}/hide`, { method: "POST" });
    await env.DB.prepare("UPDATE tags SET hidden_at = hidden_at - 86400001 WHERE id = ?")
      .bind(old.tagid)
      .run();
    const [other] = (await list(who)).tags;
    await who.fetch(`/services/account/tags/${other?.tagid}/hide`, { method: "POST" });
    const row = await env.DB.prepare("SELECT 1 FROM tags WHERE id = ?").bind(old.tagid).first();
    expect(row).toBeNull();
    expect((await who.fetch(`/services/account/tags/${old.tagid}/restore`, { method: "POST" })).status).toBe(
      404,
    );
  });

  test.each([
    ["a token this service did not write", "?token=bm90LWEtY3Vyc29y", 400],
    ["a token with characters outside base64url", "?token=a%2Fb", 400],
    ["a limit of 0", "?limit=0", 400],
    ["a limit over 100", "?limit=101", 400],
    ["a limit that is not a number", "?limit=ten", 400],
  ])("%s is refused with %i", async (_name, query, status) => {
    const who = await signedIn();
    const answer = await who.fetch(`/services/account/tags${query}`);
    expect(answer.status).toBe(status);
    expect(((await answer.json()) as { error: string }).error).toBe("invalidparam");
  });
});

describe("who may see and change tags", () => {
  test.each([
    ["GET", "/services/account/tags"],
    ["GET", "/services/account/tags/count"],
    ["POST", "/services/account/tags"],
    ["POST", "/services/account/tags/AAAAAAAAAAAAAAAAAAAAAA/hide"],
  ])("%s %s without a session is 401", async (method, path) => {
    const answer = await browser().fetch(path, {
      method,
      headers: json,
      body: method === "POST" ? "{}" : null,
    });
    expect(answer.status).toBe(401);
  });

  test("an ended session answers 456 on the list and the count, and clears the cookie", async () => {
    const who = await signedIn();
    const session = who.jar.get("tw_session") ?? "";
    await env.DB.prepare("UPDATE sessions SET expires_at = 0 WHERE id_hash = ?")
      .bind(await sha256(session))
      .run();
    for (const path of ["/services/account/tags", "/services/account/tags/count"]) {
      who.jar.set("tw_session", session);
      const answer = await who.fetch(path);
      expect(answer.status).toBe(456);
      expect(answer.headers.getSetCookie().join()).toMatch(/tw_session=;.*Max-Age=0/);
    }
  });

  test("another account's tag can be neither seen, removed nor restored", async () => {
    const ana = await signedIn();
    const ben = await signedIn();
    await appTag(ana, "anas", Date.UTC(2026, 3, 1));
    const [anas] = (await list(ana)).tags;
    if (!anas) throw new Error("no tag");
    expect((await list(ben)).tags).toEqual([]);
    expect((await ben.fetch(`/services/account/tags/${anas.tagid}/hide`, { method: "POST" })).status).toBe(
      404,
    );
    await ana.fetch(`/services/account/tags/${anas.tagid}/hide`, { method: "POST" });
    expect((await ben.fetch(`/services/account/tags/${anas.tagid}/restore`, { method: "POST" })).status).toBe(
      404,
    );
    expect(await count(ana)).toBe(0);
  });
});

/** A tag time inside the window the service accepts. */
const sane = Date.UTC(2026, 0, 1);

describe("writing tags", () => {
  // 50 concurrent writes are tested against the running site (tests/e2e/library-writes.test.ts):
  // here they leave SQLite's -shm file behind at the end of the test now and then, which fails the
  // pool's per-test storage isolation (workers-sdk #11031), not the code.

  test.each([
    ["an unknown track", { trackKey: "999999999", recognitionId: "x", tagTime: sane }, 404],
    ["a track key that is not a number", { trackKey: "abc", recognitionId: "x", tagTime: sane }, 400],
    ["a recognition id with spaces", { trackKey: "1", recognitionId: "a b", tagTime: sane }, 400],
    ["a negative time", { trackKey: "1", recognitionId: "x", tagTime: -5 }, 400],
    ["a latitude off the globe", { trackKey: "1", recognitionId: "x", tagTime: sane, lat: 91, lng: 0 }, 400],
    ["an unknown source", { source: "cd", trackKey: "1", recognitionId: "x", tagTime: sane }, 400],
  ])("%s is refused with %i", async (_name, body, status) => {
    const who = await signedIn();
    const answer = await who.fetch("/services/account/tags", {
      method: "POST",
      headers: json,
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(status);
  });

  test("a web match tags the song for a signed-in person once per recognition session, and nobody else's", async () => {
    const probe = probes.find((candidate) => candidate.matched);
    if (!probe) throw new Error("no probe");
    const who = await signedIn();
    const match = (sessionId: string, person: Browser) =>
      person.fetch("/services/webrec/match", {
        method: "POST",
        headers: { ...json, "x-shz-lat": "52.52001", "x-shz-lng": "13.40495" },
        body: JSON.stringify({ data: probe.data, sessionId, lang: "en", country: "de" }),
      });
    const answers = await Promise.all(Array.from({ length: 10 }, () => match("session-one", who)));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(v.parse(webrecMatchResponseSchema, await answer.json()).matches[0]?.trackId).toBe(
        probe.trackKey,
      );
    }
    const { tags } = await list(who);
    expect(tags).toHaveLength(1);
    expect(tags[0]?.key).toBe(probe.trackKey);
    expect(tags[0]?.location).toEqual({ country: "DE", lat: 52.52, lng: 13.4 });
    expect(Math.abs((tags[0]?.timestamp ?? 0) - Date.now())).toBeLessThan(60_000);
    await match("session-two", who);
    expect(await count(who)).toBe(2);
    // A recognition made before signing in, moved into the library on sign-in (twice, as
    // two tabs would), is one tag; a session already tagged signed in is not tagged again.
    const moved = (sessionId: string) =>
      who.fetch("/services/account/tags", {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          source: "web",
          trackKey: probe.trackKey,
          recognitionId: sessionId,
          tagTime: sane,
        }),
      });
    expect((await moved("session-before")).status).toBe(201);
    expect((await moved("session-before")).status).toBe(200);
    expect((await moved("session-one")).status).toBe(200);
    expect(await count(who)).toBe(3);
    // Without a session the match is the same and tags nothing.
    const anonymous = await match("session-three", browser());
    expect(v.parse(webrecMatchResponseSchema, await anonymous.json()).matches).toHaveLength(1);
    expect(await count(who)).toBe(3);
  });
});

describe("tag times and positions are bounded at the service (decision 030, finding 7)", () => {
  test.each([
    ["a time no date can show", 1e300],
    ["a time after the largest date", 8.64e15 + 1],
    ["a time before 2000", earliestTagTime - 1],
    ["the epoch", 0],
    ["an hour from now", Date.now() + 60 * 60 * 1000],
    ["a fraction of a millisecond", sane + 0.5],
  ])("%s (%d) is refused with 400, and nothing is stored", async (_name, tagTime) => {
    const who = await signedIn();
    const answer = await who.fetch("/services/account/tags", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ trackKey: trackKeys[0], recognitionId: "bounded", tagTime }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: "invalidparam" });
    expect(await count(who)).toBe(0);
  });

  test.each([
    ["2000-01-01", earliestTagTime],
    ["a minute ahead (a phone's clock)", Date.now() + 60_000],
  ])("%s is accepted", async (_name, tagTime) => {
    const who = await signedIn();
    expect((await appTag(who, "edge-of-window", tagTime)).status).toBe(201);
    expect((await list(who)).tags[0]?.timestamp).toBe(tagTime);
  });

  test("an exact position is stored rough: two decimals, about 1 km", async () => {
    const who = await signedIn();
    const answer = await who.fetch("/services/account/tags", {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        trackKey: trackKeys[0],
        recognitionId: "eiffel",
        tagTime: sane,
        lat: 48.8583701,
        lng: 2.2944813,
      }),
    });
    expect(answer.status).toBe(201);
    const { tagid } = (await answer.json()) as { tagid: string };
    const row = await env.DB.prepare("SELECT lat, lng FROM tags WHERE id = ?").bind(tagid).first();
    expect(row).toEqual({ lat: 48.86, lng: 2.29 });
    expect((await list(who)).tags[0]?.location).toEqual({ country: null, lat: 48.86, lng: 2.29 });
  });

  test("a bad row stored before (a time of 1e300, an exact position) breaks neither the library, its CSV nor the data download", async () => {
    const who = await signedIn();
    expect((await appTag(who, "good-one", sane)).status).toBe(201);
    const owner = await env.DB.prepare(
      "SELECT user_id FROM tags WHERE recognition_id = 'app:good-one'",
    ).first<{
      user_id: string;
    }>();
    const storedAt = Date.UTC(2026, 5, 1);
    await env.DB.prepare(
      `INSERT INTO tags (id, user_id, recognition_id, track_key, tag_time, lat, lng, created_at)
       VALUES ('bad-row-0000000000001', ?, 'app:bad', ?, 1e300, 48.8583701, 2.2944813, ?)`,
    )
      .bind(owner?.user_id, Number(trackKeys[1] ?? trackKeys[0]), storedAt)
      .run();

    const { tags } = await list(who);
    expect(tags.map((tag) => tag.timestamp)).toEqual([storedAt, sane]);
    expect(tags[0]?.location).toEqual({ country: null, lat: 48.86, lng: 2.29 });
    const page = await who.fetch("/myshazam");
    expect(page.status).toBe(200);
    const csv = await who.fetch("/myshazam/download.csv");
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(new Date(storedAt).toISOString().slice(0, 10));

    const download = await who.fetch("/services/account/privacy/export", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ locale: "en-US" }),
    });
    expect(download.status).toBe(202);
  });
});
