import { env } from "cloudflare:test";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { tagListSchema } from "#rules/library.ts";
import { type Browser, browser, signIn } from "./browser-jar";

// Decision 062: the embedded origin reads through D1's Sessions API. A person's write answers with
// the bookmark of what it wrote (cookie `tw_bookmark`), their next reads start after it; anonymous
// answers and reads never set it, and a bookmark that fails its schema is ignored.

let people = 0;

async function signedIn(): Promise<{ who: Browser; landed: Response }> {
  people += 1;
  const who = browser();
  const landed = await signIn(who, `bookmark.${people}.${Date.now()}@example.com`);
  expect(landed.status).toBe(303);
  return { who, landed };
}

const bookmarkCookieOf = (answer: Response) =>
  answer.headers.getSetCookie().find((cookie) => cookie.startsWith("tw_bookmark="));

async function anyTrackKey(): Promise<string> {
  const row = await env.DB.prepare("SELECT key FROM tracks ORDER BY key LIMIT 1").first<{ key: number }>();
  if (!row) throw new Error("the catalogue is empty");
  return String(row.key);
}

function tag(who: Browser, trackKey: string, recognitionId: string) {
  return who.fetch("/services/account/tags", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ trackKey, recognitionId, tagTime: Date.now() - 60_000 }),
  });
}

async function tagIds(who: Browser): Promise<string[]> {
  const answer = await who.fetch("/services/account/tags");
  expect(answer.status).toBe(200);
  return v.parse(tagListSchema, await answer.json()).tags.map((t) => t.tagid);
}

describe("a person's write, then their read", () => {
  test("the sign-in's answer carries the bookmark of the new session", async () => {
    const { who, landed } = await signedIn();
    expect(bookmarkCookieOf(landed)).toBeDefined();
    expect(who.jar.has("tw_bookmark")).toBe(true);
  });

  test("a tag's answer carries the bookmark, HttpOnly, Secure, Lax, short-lived; the library read sees the tag", async () => {
    const { who } = await signedIn();
    const before = who.jar.get("tw_bookmark");
    const written = await tag(who, await anyTrackKey(), "bookmark-tag");
    expect(written.status).toBe(201);
    const { tagid } = (await written.json()) as { tagid: string };
    const cookie = bookmarkCookieOf(written);
    expect(cookie).toMatch(
      /^tw_bookmark=[0-9A-Za-z-]+; Max-Age=120; Path=\/; SameSite=Lax; Secure; HttpOnly$/,
    );
    // The write moved D1 on: its bookmark is a newer one than the sign-in's.
    expect(who.jar.get("tw_bookmark")).not.toBe(before);
    const read = await who.fetch("/services/account/tags");
    expect(read.status).toBe(200);
    expect(v.parse(tagListSchema, await read.json()).tags.map((t) => t.tagid)).toContain(tagid);
    // A read hands out no bookmark of its own.
    expect(bookmarkCookieOf(read)).toBeUndefined();
  });

  test("a removal by the library page's form passes the bookmark on; the next read no longer lists the tag", async () => {
    const { who } = await signedIn();
    const written = await tag(who, await anyTrackKey(), "bookmark-removal");
    const { tagid } = (await written.json()) as { tagid: string };
    who.jar.delete("tw_bookmark");
    const removed = await who.fetch("/myshazam?index", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "remove", tagid }),
    });
    expect(removed.status).toBe(200);
    expect(bookmarkCookieOf(removed)).toBeDefined();
    expect(await tagIds(who)).not.toContain(tagid);
  });
});

describe("answers that set no bookmark", () => {
  test("an anonymous page and an anonymous catalogue read", async () => {
    const visitor = browser();
    const page = await visitor.fetch("/");
    expect(page.status).toBe(200);
    expect(bookmarkCookieOf(page)).toBeUndefined();
    const read = await visitor.fetch("/services/charts/locations");
    expect(read.status).toBe(200);
    expect(bookmarkCookieOf(read)).toBeUndefined();
    expect(visitor.jar.has("tw_bookmark")).toBe(false);
  });

  test("a signed-in person's page", async () => {
    const { who } = await signedIn();
    const page = await who.fetch("/myshazam");
    expect(page.status).toBe(200);
    expect(bookmarkCookieOf(page)).toBeUndefined();
  });
});

describe("a hostile bookmark cookie is ignored", () => {
  test.each([
    { case: "too long", value: "0".repeat(4096) },
    { case: "of wrong characters", value: "00000085-0000024c%3B%20DROP%20TABLE%20tags" },
    { case: "markup", value: "%3Cscript%3Ealert(1)%3C%2Fscript%3E" },
  ])("$case: the reads answer 200, a write 201", async ({ value }) => {
    const { who } = await signedIn();
    who.jar.set("tw_bookmark", value);
    expect(await tagIds(who)).toEqual([]);
    const page = await who.fetch("/myshazam");
    expect(page.status).toBe(200);
    const written = await tag(who, await anyTrackKey(), `hostile-${value.length}`);
    expect(written.status).toBe(201);
    // The write's answer replaces the hostile value with a bookmark of its own.
    expect(who.jar.get("tw_bookmark")).toMatch(/^[0-9A-Za-z-]+$/);
    const anonymous = browser();
    anonymous.jar.set("tw_bookmark", value);
    expect((await anonymous.fetch("/")).status).toBe(200);
  });
});
