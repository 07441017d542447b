import "#tests/all-languages.ts";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import * as v from "valibot";
import { afterEach, describe, expect, test, vi } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { sha256 } from "#origin/accounts.ts";
import { createOrigin } from "#origin/index.ts";
import { recognitionProbesSchema } from "#origin/recognition-index.ts";
import { libraryCsvHeader } from "#rules/library.ts";
import probesText from "../../origin/catalog/dist/recognition-probes.json?raw";
import { type Browser, browser, signIn, site } from "./browser-jar";
import worker from "./built-worker";

// The /myshazam page and its downloads through the whole worker: what a signed-out visitor and a
// signed-in person see, paging, removal and undo by form, the export files, and refusals.

const trackKeys = [
  ...new Set(v.parse(recognitionProbesSchema, JSON.parse(probesText)).probes.map((probe) => probe.trackKey)),
];
let people = 0;

async function signedIn(): Promise<Browser> {
  people += 1;
  const who = browser();
  await signIn(who, `page.${people}.${Date.now()}@example.com`);
  expect(who.jar.has("tw_session")).toBe(true);
  return who;
}

/**
 * Gives `who` `howMany` songs an hour apart from 1 June 2026, written straight into D1 in one batch
 * (the account service's write path has its own tests in library.test.ts): pages here need many.
 */
async function addTags(who: Browser, howMany: number, trackKey?: string) {
  const session = await env.DB.prepare("SELECT user_id FROM sessions WHERE id_hash = ?")
    .bind(await sha256(who.jar.get("tw_session") ?? ""))
    .first<{ user_id: string }>();
  if (!session) throw new Error("not signed in");
  await env.DB.batch(
    Array.from({ length: howMany }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO tags (id, user_id, recognition_id, track_key, tag_time, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).bind(
        crypto.randomUUID().replaceAll("-", ""),
        session.user_id,
        `page-${i}-${trackKey ?? ""}`,
        Number(trackKey ?? trackKeys[i % trackKeys.length]),
        Date.UTC(2026, 5, 1) + i * 3_600_000,
        Date.now(),
      ),
    ),
  );
}

function post(
  who: Browser,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return who.fetch(path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: "https://tunewave.test",
      ...headers,
    },
    body: new URLSearchParams(form),
  });
}

const tagIdsOf = (html: string) =>
  [...html.matchAll(/name="tagid" value="([\w-]+)"/g)].map((match) => match[1]);

describe("the library page", () => {
  test("signed out: a sign-in card that leads back here, noindex; the removal notice is for those with a library", async () => {
    const answer = await browser().fetch("/de/myshazam");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const { t } = serverStrings("de");
    expect(html).toContain(t("library:signedOutTitle"));
    expect(html).not.toContain(`<p class="library__notice">${t("library:removalNotice")}</p>`);
    expect(html).toContain('href="/de/login?redirect=%2Fde%2Fmyshazam"');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
  });

  test("/secure/myshazam: signed out, the sign-in check sends the person to sign in and back", async () => {
    const answer = await browser().fetch("/de/secure/myshazam");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/de/login?redirect=%2Fde%2Fsecure%2Fmyshazam");
  });

  test("/secure/myshazam: signed in, the library itself, private, its canonical address /myshazam", async () => {
    const who = await signedIn();
    const answer = await who.fetch("/secure/myshazam");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Cache-Control")).toMatch(/private/);
    const html = await answer.text();
    expect(html).toContain("No songs yet");
    expect(html).toContain('<link rel="canonical" href="https://tunewave.test/myshazam"/>');
  });

  test("an empty library sends the person to identify a song, under the removal notice (mylibrarysunset)", async () => {
    const who = await signedIn();
    const html = await (await who.fetch("/myshazam")).text();
    expect(html).toContain(
      `<p class="library__notice">${serverStrings("en").t("library:removalNotice")}</p>`,
    );
    expect(html).toContain("No songs yet");
    expect(html).toContain('href="/identify"');
    expect(html).toContain("0 songs");
  });

  test("45 songs: the count, 20 a page newest first, older and newest links, and a private answer", async () => {
    const who = await signedIn();
    await addTags(who, 45);
    const first = await who.fetch("/myshazam");
    expect(first.headers.get("Cache-Control")).toMatch(/private/);
    expect(first.headers.get("Cache-Control")).toMatch(/no-store/);
    const html = await first.text();
    expect(html).toContain("45 songs");
    expect(html).toContain("Songs 1–20 of 45");
    expect(tagIdsOf(html)).toHaveLength(20);
    expect(html).toMatch(/<time dateTime="2026-06-02T20:00:00.000Z">/);
    const older = /href="(\/myshazam\?token=[\w-]+)"/.exec(html)?.[1];
    if (!older) throw new Error("no link to older songs");
    const second = await (await who.fetch(older)).text();
    expect(second).toContain("Songs 21–40 of 45");
    const third = await (await who.fetch(/href="(\/myshazam\?token=[\w-]+)"/.exec(second)?.[1] ?? "")).text();
    expect(third).toContain("Songs 41–45 of 45");
    expect(tagIdsOf(third)).toHaveLength(5);
    expect(third).not.toMatch(/href="\/myshazam\?token=/);
    expect(third).toContain('href="/myshazam">Newest songs');
  });

  test("a page token that is not ours is a 400 page, not a 500", async () => {
    const who = await signedIn();
    expect((await who.fetch("/myshazam?token=bm9wZQ")).status).toBe(400);
    expect((await who.fetch("/myshazam?token=%3Cscript%3E")).status).toBe(400);
  });

  test("remove, then undo, by form", async () => {
    const who = await signedIn();
    await addTags(who, 2);
    const [newest] = tagIdsOf(await (await who.fetch("/myshazam")).text());
    const removed = await post(who, "/myshazam?index", { intent: "remove", tagid: newest ?? "" });
    expect(removed.status).toBe(200);
    const html = await removed.text();
    expect(html).toMatch(/was removed from your library/);
    expect(html).toContain('value="restore"');
    expect(html).toContain("1 song");
    expect(tagIdsOf(html).filter((id) => id === newest)).toHaveLength(1);
    const restored = await post(who, "/myshazam?index", { intent: "restore", tagid: newest ?? "" });
    const back = await restored.text();
    expect(back).toMatch(/is back in your library/);
    expect(back).toContain("2 songs");
  });

  test.each([
    ["another site's Origin", { origin: "https://evil.test" }],
    ["a cross-site fetch", { origin: "", "sec-fetch-site": "cross-site" }],
  ])("a removal from %s is refused and removes nothing", async (_name, headers) => {
    const who = await signedIn();
    await addTags(who, 1);
    const [tagid] = tagIdsOf(await (await who.fetch("/myshazam")).text());
    const answer = await post(who, "/myshazam?index", { intent: "remove", tagid: tagid ?? "" }, headers);
    expect(answer.status).toBe(403);
    expect(await (await who.fetch("/myshazam")).text()).toContain("1 song");
  });

  test.each([
    ["an unknown tag", { intent: "remove", tagid: "AAAAAAAAAAAAAAAAAAAAAA" }, 404],
    ["a malformed tag id", { intent: "remove", tagid: "<b>" }, 400],
    ["an unknown intent", { intent: "delete-all", tagid: "AAAAAAAAAAAAAAAAAAAAAA" }, 400],
  ])("%s answers %i with the page and a message", async (_name, form, status) => {
    const who = await signedIn();
    const answer = await post(who, "/myshazam?index", form);
    expect(answer.status).toBe(status);
    expect(await answer.text()).toContain("That song is no longer in your library.");
  });

  test("a removal while signed out goes to sign in", async () => {
    const answer = await post(browser(), "/myshazam?index", {
      intent: "remove",
      tagid: "AAAAAAAAAAAAAAAAAAAAAA",
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/login?redirect=%2Fmyshazam");
  });

  test("a session that ended (456) signs the person out: the cookie is cleared and the page shows sign-in", async () => {
    const who = await signedIn();
    await env.DB.prepare("UPDATE sessions SET expires_at = 0 WHERE id_hash = ?")
      .bind(await sha256(who.jar.get("tw_session") ?? ""))
      .run();
    const answer = await who.fetch("/myshazam");
    expect(who.jar.has("tw_session")).toBe(false);
    const html = answer.status === 200 ? await answer.text() : await (await who.fetch("/myshazam")).text();
    expect(html).toContain("Sign in to see your library");
  });
});

describe("the export", () => {
  test("CSV: the header, every song newest first, absolute links, formula cells neutralised", async () => {
    const who = await signedIn();
    // A song whose title a spreadsheet would run as a formula (a copy of a catalogue track).
    const row = await env.DB.prepare("SELECT * FROM tracks WHERE key = ?").bind(Number(trackKeys[0])).first();
    if (!row) throw new Error("no track");
    const evil = { ...row, key: 990000001, adamid: "990000001", title: '=HYPERLINK("http://evil.test","x")' };
    const columns = Object.keys(evil);
    await env.DB.prepare(
      `INSERT OR REPLACE INTO tracks (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    )
      .bind(...Object.values(evil))
      .run();
    await addTags(who, 120);
    await addTags(who, 1, "990000001");
    const answer = await who.fetch("/myshazam/download.csv");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8; header=present");
    expect(answer.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="tunewave-library-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = (await answer.text()).split("\r\n");
    expect(lines[0]).toBe(libraryCsvHeader.join(","));
    expect(lines).toHaveLength(1 + 121 + 1);
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(1, -1).map((line) => Number(line.split(",")[0]))).toEqual(
      Array.from({ length: 121 }, (_, i) => i + 1),
    );
    const evilLine = lines.find((line) => line.includes("990000001"));
    expect(evilLine).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(lines[2]).toMatch(
      /^2,2026-06-05T22:00:00\.000Z,.+,https:\/\/tunewave\.test\/track\/\d+\/[^,]+,\d+$/,
    );
  });

  test("JSON: every song with its time, link and where, and the count", async () => {
    const who = await signedIn();
    await addTags(who, 3);
    const answer = await who.fetch("/fr/myshazam/download.json");
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as {
      exported: string;
      count: number;
      tags: {
        index: number;
        tagTime: string;
        title: string;
        artist: string;
        url: string;
        trackKey: string;
      }[];
    };
    expect(body.count).toBe(3);
    expect(body.tags.map((tag) => tag.index)).toEqual([1, 2, 3]);
    expect(body.tags[0]?.tagTime).toBe("2026-06-01T02:00:00.000Z");
    expect(body.tags[0]?.url).toMatch(/^https:\/\/tunewave\.test\/fr\/track\/\d+\//);
  });

  test("signed out, a download goes to sign in and back", async () => {
    const answer = await browser().fetch("/myshazam/download.csv");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/login?redirect=%2Fmyshazam%2Fdownload.csv");
  });
});

describe("an upstream account service", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const remoteHost = "remote-account.example";

  /**
   * `who`'s library page from a worker whose upstream is a remote account service: the embedded
   * origin's answers (same D1), the tag list's `count` kept or taken out. The paths it was asked.
   */
  async function libraryFromRemote(
    who: Browser,
    withCount: boolean,
  ): Promise<{ html: string; asked: string[] }> {
    const remote = createOrigin();
    const realFetch = globalThis.fetch;
    const asked: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.host !== remoteHost) return realFetch(input, init);
      asked.push(url.pathname);
      const answer = await remote.fetch(request, env);
      if (withCount || url.pathname !== "/services/account/tags") return answer;
      const { count: _, ...spec } = (await answer.json()) as Record<string, unknown>;
      return Response.json(spec, { status: answer.status, headers: answer.headers });
    });
    const ctx = createExecutionContext();
    const cookie = [...who.jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await worker.fetch(
      new Request(`${site}/myshazam`, { headers: { cookie, host: new URL(site).host } }),
      { ...env, SERVICES_ORIGIN: `https://${remoteHost}` },
      ctx,
    );
    const html = await response.text();
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
    return { html, asked };
  }

  // Decision 048: the embedded origin answers the count with the page; an upstream that answers
  // spec 002's fields alone still gets the page right, asking GET tag count as well.
  test.each([
    { withCount: true, countAsked: false },
    { withCount: false, countAsked: true },
  ])(
    "the tag list with a count: $withCount; the count asked for: $countAsked",
    async ({ withCount, countAsked }) => {
      const who = await signedIn();
      await addTags(who, 3);
      const { html, asked } = await libraryFromRemote(who, withCount);
      expect(html).toContain("3 songs");
      expect(html).toContain("Songs 1–3 of 3");
      expect(asked).toContain("/services/account/tags");
      expect(asked.includes("/services/account/tags/count")).toBe(countAsked);
    },
  );
});
