import "#tests/all-languages.ts";
import { env, SELF } from "cloudflare:test";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { sha256 } from "#origin/accounts.ts";
import { archiveFiles } from "#origin/privacy-archive.ts";
import { emailLinkLifetimeMs, sessionLifetimeSeconds } from "#rules/account.ts";
import { cookieMaxAgeSeconds, webIdMaxAgeSeconds } from "#rules/cookies.ts";
import { languages, localizedPath } from "#rules/languages.ts";
import { hiddenTagLifetimeMs } from "#rules/library.ts";
import {
  dataExportLifetimeMs,
  expiredExportRecordMs,
  formatDuration,
  privacyAnswerDays,
  privacyDataCategories,
  privacyDataCategoryKeys,
  transferNoticeDeletionDays,
} from "#rules/privacy.ts";
import { eventRetentionDays } from "#rules/schemas/identification.ts";
import { callbackPath, defaultClientId, mockActivatePath, tokenPath } from "#rules/streaming.ts";
import { dayMs } from "#rules/time.ts";
import { type Browser, browser, site } from "./browser-jar";

// The privacy flows inside workerd: the data download (asked for on the page, mailed, fetched
// through the site by the account that asked, and by nobody else), account deletion, the data
// categories and the pages in every language.

const en = serverStrings("en");

/** The newest mail the outbox holds for `email` whose subject is `subject`: its text. */
async function mailTo(email: string, subject: string): Promise<string> {
  const answer = await SELF.fetch(`${site}/services/account/outbox`);
  const { mails } = (await answer.json()) as { mails: { to: string; subject: string; text: string }[] };
  const mail = mails.find((m) => m.to === email && m.subject === subject);
  if (!mail) throw new Error(`no "${subject}" mail for ${email}`);
  return mail.text;
}

/** The path of the first link in a mail's text. */
function linkIn(text: string): string {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error("no link in the mail");
  const url = new URL(link);
  return url.pathname + url.search;
}

/** Signs `who` in with an e-mail link, as the login form and the mailed link do. */
async function signIn(who: Browser, email: string): Promise<void> {
  const asked = await who.fetch("/login?index", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }),
  });
  expect(asked.status).toBe(200);
  const landing = await who.fetch(linkIn(await mailTo(email, en.t("account:mail.subject"))));
  expect(landing.status).toBe(303);
  expect(who.jar.has("tw_session")).toBe(true);
}

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields),
});

/** Asks for the data download with the page's form (the box ticked). */
function requestDownload(who: Browser, lang: "en" | "de" = "en", headers: Record<string, string> = {}) {
  return who.fetch(`${localizedPath(lang, "/privacy/download")}?index`, form({ confirm: "yes" }, headers));
}

async function userId(email: string): Promise<string | undefined> {
  const row = await env.DB.prepare("SELECT id FROM users WHERE email = ?")
    .bind(email)
    .first<{ id: string }>();
  return row?.id;
}

/** Two catalogue tracks, a hidden tag, and recognition ids a spreadsheet would run as formulas. */
async function tagSongs(email: string): Promise<{ key: number; title: string; artist: string }[]> {
  const { results: tracks } = await env.DB.prepare(
    "SELECT t.key, t.title, a.name AS artist FROM tracks t JOIN artists a ON a.id = t.artist_id ORDER BY t.key LIMIT 2",
  ).all<{ key: number; title: string; artist: string }>();
  const owner = await userId(email);
  const [first, second] = tracks;
  if (!owner || !first || !second) throw new Error("no account or catalogue");
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO tags (id, user_id, recognition_id, track_key, tag_time, country, lat, lng, created_at)
       VALUES ('tag-one-0000000000001', ?, '=HYPERLINK("http://evil.example")', ?, 1700000000000, 'GB', 51.5, -0.12, 1700000000000)`,
    ).bind(owner, first.key),
    env.DB.prepare(
      `INSERT INTO tags (id, user_id, recognition_id, track_key, tag_time, created_at, hidden_at)
       VALUES ('tag-two-0000000000002', ?, '@SUM(1+1)', ?, 1700000100000, 1700000100000, ?)`,
    ).bind(owner, second.key, Date.now()),
  ]);
  return tracks;
}

/** An offer code handed out to the account (as `/campaign/first-month` hands one out). */
async function giveOfferCode(email: string, code: string): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO offer_codes (user_id, campaign, code, months, platform, country, created_at)
     VALUES (?, 'first-month', ?, 1, 'web', 'GB', 1700000200000)`,
  )
    .bind(await userId(email), code)
    .run();
}

/** The download link mailed to `email` (path and query), and its id and token. */
async function downloadLink(email: string, lang: "en" | "de" = "en") {
  const subject = serverStrings(lang).t("privacy:mail.subject");
  const path = linkIn(await mailTo(email, subject));
  const url = new URL(path, site);
  const id = url.pathname.split("/").at(-1) ?? "";
  return { path, id, token: url.searchParams.get("token") ?? "" };
}

function decode(html: string): string {
  return html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

describe("the data download", () => {
  test("the form prepares a ZIP of everything held, mails a localized link, and the link downloads it", async () => {
    const who = browser();
    const email = "ada@example.com";
    await signIn(who, email);
    const tracks = await tagSongs(email);
    await giveOfferCode(email, "TWADA0000001");

    const asked = await requestDownload(who, "de");
    expect(asked.status).toBe(200);
    const de = serverStrings("de");
    expect(decode(await asked.text())).toContain(
      de.t("privacy:download.sent", { email, date: "" }).split(".")[0],
    );

    const mail = await mailTo(email, de.t("privacy:mail.subject"));
    expect(mail).toMatch(/https:\/\/tunewave\.test\/de\/privacy\/download\/[\w-]{22}\?token=[\w-]{43}/);
    expect(mail).not.toContain("http://");
    const link = await downloadLink(email, "de");

    const page = await who.fetch(link.path);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const html = decode(await page.text());
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain(de.t("privacy:file.readyTitle"));
    const archiveHref = /href="(\/de\/privacy\/download\/[\w-]+\/archive\?token=[\w-]+)"/.exec(html)?.[1];
    expect(archiveHref).toBe(`/de/privacy/download/${link.id}/archive?token=${link.token}`);

    const file = await who.fetch(archiveHref ?? "");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/zip");
    expect(file.headers.get("content-disposition")).toMatch(
      /^attachment; filename="tunewave-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(file.headers.get("cache-control")).toBe("private, no-store");
    const zip = unzipSync(new Uint8Array(await file.arrayBuffer()));
    expect(Object.keys(zip).sort()).toEqual([...archiveFiles].sort());
    const text = (name: string) => strFromU8(zip[name] ?? new Uint8Array());

    const data = JSON.parse(text("data.json"));
    expect(data.account).toEqual({ id: await userId(email), email, createdAt: expect.any(String) });
    expect(data.sessions).toEqual([
      { method: "email", createdAt: expect.any(String), expiresAt: expect.any(String) },
    ]);
    expect(data.tags.map((tag: { title: string; artist: string }) => [tag.title, tag.artist]).sort()).toEqual(
      tracks.map((track) => [track.title, track.artist]).sort(),
    );
    expect(data.tags.filter((tag: { hiddenAt: string | null }) => tag.hiddenAt !== null)).toHaveLength(1);
    expect(data.tags).toContainEqual(
      expect.objectContaining({ country: "GB", lat: 51.5, lng: -0.12, taggedAt: "2023-11-14T22:13:20.000Z" }),
    );
    expect(data.signInRequests).toEqual([
      {
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        usedAt: expect.any(String),
        locale: "en-US",
        installId: expect.any(String),
      },
    ]);
    expect(data.dataExports).toEqual([]);
    expect(data.offerCodes).toEqual([
      {
        campaign: "first-month",
        code: "TWADA0000001",
        months: 1,
        platform: "web",
        country: "GB",
        createdAt: "2023-11-14T22:16:40.000Z",
      },
    ]);
    expect(text("offer-codes.csv")).toBe(
      "Campaign,Code,Months,Platform,Country,CreatedAt\r\nfirst-month,TWADA0000001,1,web,GB,2023-11-14T22:16:40.000Z\r\n",
    );

    // Spreadsheets: one header row and a row per record; formula-like text is not a formula.
    const tags = text("tags.csv").split("\r\n");
    expect(tags[0]).toBe(
      "Id,TrackKey,Title,Artist,TaggedAt,Country,Latitude,Longitude,HiddenAt,RecognitionId,CreatedAt",
    );
    expect(tags).toHaveLength(4);
    expect(text("tags.csv")).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(text("tags.csv")).toContain(",'@SUM(1+1),");
    expect(text("tags.csv")).not.toMatch(/,[=@]/);
    expect(text("account.csv")).toBe(
      `Id,Email,CreatedAt\r\n${data.account.id},${email},${data.account.createdAt}\r\n`,
    );
    expect(text("sessions.csv").split("\r\n")[1]).toMatch(/^email,/);
    expect(text("README.txt")).toContain(de.t("privacy:archive.title"));

    // No secret of the account is in it: no hash of the session, link or device, no cookie.
    const everything = Object.values(zip)
      .map((bytes) => strFromU8(bytes))
      .join("\n");
    const { results: secrets } = await env.DB.prepare(
      `SELECT id_hash AS secret FROM sessions UNION SELECT token_hash FROM email_logins
       UNION SELECT device_hash FROM email_logins UNION SELECT token_hash FROM data_exports`,
    ).all<{ secret: string }>();
    expect(secrets.length).toBeGreaterThan(3);
    for (const { secret } of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toContain(who.jar.get("tw_session"));
    expect(everything).not.toContain(link.token);
  });

  test("a second request while the first is unexpired: 409, the spec's message, on the page and at the service", async () => {
    const who = browser();
    await signIn(who, "bea@example.com");
    expect((await requestDownload(who)).status).toBe(200);
    const again = await requestDownload(who);
    expect(again.status).toBe(409);
    expect(decode(await again.text())).toContain(en.t("common:error.requestInProcess"));
    const service = await who.fetch("/services/account/privacy/export", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ locale: "en-US" }),
    });
    expect(service.status).toBe(409);
    expect(await service.json()).toMatchObject({
      reason: "inprocess",
      message: "Your request is already in process",
      expiresAt: expect.any(Number),
    });
    // Once it has expired, a new one is prepared.
    await env.DB.prepare("UPDATE data_exports SET expires_at = 0").run();
    expect((await requestDownload(who)).status).toBe(200);
  });

  test("the box left unticked: 400 with the localized message, nothing prepared", async () => {
    const who = browser();
    await signIn(who, "cai@example.com");
    const answer = await who.fetch("/fr/privacy/download?index", form({}));
    expect(answer.status).toBe(400);
    const fr = serverStrings("fr");
    expect(decode(await answer.text())).toContain(fr.t("privacy:download.notConfirmed"));
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM data_exports").first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  test("another account opening the link: 403 wrong account; then its own account downloads it", async () => {
    const owner = browser();
    const other = browser();
    await signIn(owner, "dan@example.com");
    await signIn(other, "eve@example.com");
    await requestDownload(owner);
    const link = await downloadLink("dan@example.com");

    // Twice: the services proxy must not remember the refusal for the URL (it is the caller's).
    for (let attempt = 0; attempt < 3; attempt++) {
      const page = await other.fetch(link.path);
      expect(page.status).toBe(403);
      expect(decode(await page.text())).toContain(en.t("common:error.wrongAccount"));
    }
    const service = await other.fetch(`/services/account/privacy/export/${link.id}?token=${link.token}`);
    expect(service.status).toBe(403);
    expect(await service.json()).toMatchObject({
      reason: "wrongaccount",
      message: en.t("common:error.wrongAccount"),
    });
    const archive = await other.fetch(`/privacy/download/${link.id}/archive?token=${link.token}`);
    expect(archive.status).toBe(303);
    expect(archive.headers.get("location")).toBe(link.path);

    const own = await owner.fetch(`/services/account/privacy/export/${link.id}?token=${link.token}`);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("application/zip");
  });

  test("after its lifetime: 410 expired download file, and the file's bytes are deleted", async () => {
    const who = browser();
    await signIn(who, "fay@example.com");
    await requestDownload(who);
    const link = await downloadLink("fay@example.com");
    await env.DB.prepare("UPDATE data_exports SET expires_at = ?")
      .bind(Date.now() - 1)
      .run();
    const page = await who.fetch(link.path);
    expect(page.status).toBe(410);
    expect(decode(await page.text())).toContain(en.t("common:error.downloadExpired"));
    const service = await who.fetch(`/services/account/privacy/export/${link.id}?token=${link.token}`);
    expect(service.status).toBe(410);
    const row = await env.DB.prepare("SELECT archive FROM data_exports").first<{ archive: unknown }>();
    expect(row?.archive).toBeNull();
    // Long after: the record itself is gone, and the link is unknown.
    await env.DB.prepare("UPDATE data_exports SET expires_at = ?")
      .bind(Date.now() - expiredExportRecordMs - 1)
      .run();
    expect((await who.fetch(link.path)).status).toBe(404);
  });

  test.each([
    ["a forged token", (link: { id: string; token: string }) => `${link.id}?token=${"A".repeat(43)}`],
    ["no token", (link: { id: string; token: string }) => link.id],
    ["a malformed token", (link: { id: string; token: string }) => `${link.id}?token=%3Cscript%3E`],
    ["an unknown id", (link: { id: string; token: string }) => `${"B".repeat(22)}?token=${link.token}`],
    ["a malformed id", (link: { id: string; token: string }) => `x'y?token=${link.token}`],
  ])("%s: 404 with the localized page, never a 500", async (_name, tail) => {
    const who = browser();
    await signIn(who, "gil@example.com");
    await requestDownload(who);
    const link = await downloadLink("gil@example.com");
    const page = await who.fetch(`/it/privacy/download/${tail(link)}`);
    expect(page.status).toBe(404);
    expect(decode(await page.text())).toContain(serverStrings("it").t("privacy:file.unknown"));
    const service = await who.fetch(`/services/account/privacy/export/${tail(link)}`);
    expect(service.status).toBe(404);
  });

  test("signed out, the link leads to sign-in and back to itself", async () => {
    const owner = browser();
    await signIn(owner, "hal@example.com");
    await requestDownload(owner);
    const link = await downloadLink("hal@example.com");
    const visitor = browser();
    const page = await visitor.fetch(link.path);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`/login?${new URLSearchParams({ redirect: link.path })}`);
    const archive = await visitor.fetch(`/privacy/download/${link.id}/archive?token=${link.token}`);
    expect(archive.status).toBe(302);
    expect(archive.headers.get("location")).toMatch(/^\/login\?redirect=/);
  });
});

describe("the account service's privacy calls", () => {
  const calls = [
    ["POST", "/services/account/privacy/export", { locale: "en-US" }],
    ["GET", `/services/account/privacy/export/${"C".repeat(22)}?token=${"D".repeat(43)}`, undefined],
    ["GET", `/services/account/privacy/export/${"C".repeat(22)}/status?token=${"D".repeat(43)}`, undefined],
    ["GET", "/services/account/privacy/categories", undefined],
    ["POST", "/services/account/privacy/delete", { email: "ivy@example.com" }],
  ] as const;

  test.each(calls)("%s %s without a session: 401", async (method, path, body) => {
    const answer = await browser().fetch(path, {
      method,
      headers: { "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("cache-control")).toMatch(/no-store/);
  });

  test.each(calls)(
    "%s %s with an ended session: 456, and the cookie is cleared",
    async (method, path, body) => {
      const who = browser();
      await signIn(who, "ivy@example.com");
      await env.DB.prepare("DELETE FROM sessions").run();
      const answer = await who.fetch(path, {
        method,
        headers: { "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(answer.status).toBe(456);
      expect(who.jar.has("tw_session")).toBe(false);
      expect(await userId("ivy@example.com")).toBeDefined();
    },
  );

  test.each([
    ["not JSON", "privacy/export", "{"],
    ["an unknown locale", "privacy/export", JSON.stringify({ locale: "<b>" })],
    ["no address", "privacy/delete", JSON.stringify({})],
    ["another address", "privacy/delete", JSON.stringify({ email: "someone@example.com" })],
    ["an invalid address", "privacy/delete", JSON.stringify({ email: "jo@" })],
  ])("a body with %s: 400, and nothing changes", async (_name, path, body) => {
    const who = browser();
    await signIn(who, "jo@example.com");
    const answer = await who.fetch(`/services/account/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: "invalidparam" });
    expect(await userId("jo@example.com")).toBeDefined();
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM data_exports").first<{ n: number }>())?.n).toBe(
      0,
    );
  });
});

/** RFC 7636 Appendix B's verifier and its S256 challenge. */
const pkce = {
  verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
  challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
};

/**
 * Gives the signed-in account data in every category the privacy pages name, each the way a person
 * makes it: tags (one from the app, with an exact position), an offer code, an artist verification
 * request and a survey answer sent on the site's forms, a streaming connection allowed on the
 * consent page, an earlier data download; sessions, sign-in links and mail come with signing in.
 * Returns what deletion must make unusable.
 */
async function fillEveryCategory(who: Browser, email: string) {
  await tagSongs(email);
  const [track] = (await env.DB.prepare("SELECT key FROM tracks ORDER BY key LIMIT 1").all<{ key: number }>())
    .results;
  const appTag = await who.fetch("/services/account/tags", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "https://tunewave.test" },
    body: JSON.stringify({
      trackKey: String(track?.key),
      recognitionId: "app-walk-1",
      tagTime: Date.now() - 60_000,
      lat: 48.8583701,
      lng: 2.2944813,
    }),
  });
  expect(appTag.status).toBe(201);
  await giveOfferCode(email, `TW${email.slice(0, 3).toUpperCase()}0000009`);

  const verification = await who.fetch(
    "/verify?index",
    form({
      artistName: "Walk Artist",
      role: "artist",
      email,
      link: "https://example.org/walk",
      message: "Me",
    }),
  );
  expect(verification.status).toBe(303);
  const verificationPath = verification.headers.get("location") ?? "";

  const survey = await who.fetch(
    "/survey?index",
    form({ satisfaction: "5", found: "always", comment: "Walk" }),
  );
  expect(survey.status).toBe(303);
  const receipt = who.jar.get("surveyReceipt") ?? "";
  expect(receipt).toMatch(/^[\w-]{43}$/);

  const query = new URLSearchParams({
    client_id: defaultClientId,
    response_type: "code",
    scope: "music",
    redirect_uri: `${site}${callbackPath}`,
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    state: "walk",
  });
  // The consent page shows the request first (its ticket, decision 021), then Allow.
  expect((await who.fetch(`${mockActivatePath}?${query}`)).status).toBe(200);
  const allowed = await who.fetch(`${mockActivatePath}?${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: site },
    body: new URLSearchParams([...query, ["decision", "allow"]]),
  });
  expect(allowed.status).toBe(303);
  const code = new URL(allowed.headers.get("location") ?? "").searchParams.get("code") ?? "";
  const granted = await who.fetch(tokenPath, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      code_verifier: pkce.verifier,
      redirect_uri: `${site}${callbackPath}`,
      client_id: defaultClientId,
    }),
  });
  expect(granted.status).toBe(200);
  const { access_token: streamingToken } = (await granted.json()) as { access_token: string };

  // An earlier download, expired a day ago: its record is still held.
  await env.DB.prepare(
    `INSERT INTO data_exports (id, user_id, status, token_hash, created_at, expires_at)
     VALUES (?, ?, 'ready', 'earlier-token-hash', ?, ?)`,
  )
    .bind(
      `earlier${email.slice(0, 3)}000000000000`.slice(0, 22),
      await userId(email),
      Date.now() - 8 * dayMs,
      Date.now() - dayMs,
    )
    .run();
  return { verificationPath, receipt, streamingToken };
}

/** Every row of every table in which some column holds one of `values`: what is left of someone. */
async function rowsNaming(values: readonly string[]): Promise<string[]> {
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
  ).all<{ name: string }>();
  const found: string[] = [];
  for (const { name } of tables) {
    const { results: columns } = await env.DB.prepare(`SELECT name FROM pragma_table_info(?)`)
      .bind(name)
      .all<{ name: string }>();
    for (const column of columns) {
      for (const value of values) {
        const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM "${name}" WHERE "${column.name}" = ?`)
          .bind(value)
          .first<{ n: number }>();
        if (row?.n) found.push(`${name}.${column.name} = ${value} (${row.n})`);
      }
    }
  }
  return found;
}

describe("every data category the privacy pages name", () => {
  test("is in the data download, and nothing of the account is left in any table after deletion", async () => {
    const who = browser();
    const email = "walk@example.com";
    await signIn(who, email);
    const made = await fillEveryCategory(who, email);
    const id = await userId(email);
    if (!id) throw new Error("no account");

    // The categories page draws the one list.
    const page = decode(await (await who.fetch("/privacy/data-categories")).text());
    for (const key of privacyDataCategoryKeys)
      expect(page).toContain(en.t(`privacy:categories.${key}.title`));
    const counts = (await (await who.fetch("/services/account/privacy/categories")).json()) as Record<
      string,
      unknown
    >;

    expect((await requestDownload(who)).status).toBe(200);
    const link = await downloadLink(email);
    const file = await who.fetch(`/privacy/download/${link.id}/archive?token=${link.token}`);
    expect(file.status).toBe(200);
    const zip = unzipSync(new Uint8Array(await file.arrayBuffer()));
    const data = JSON.parse(strFromU8(zip["data.json"] ?? new Uint8Array()));
    for (const [category, section] of Object.entries(privacyDataCategories)) {
      if (section === null) continue;
      const held = data[section];
      expect(held, `${category} is in the download as ${section}`).toBeDefined();
      if (Array.isArray(held)) {
        expect(held.length, `${category} holds the account's records`).toBeGreaterThan(0);
        const csvName = `${section.replace(/[A-Z]/g, (c: string) => `-${c.toLowerCase()}`)}.csv`;
        const csv = strFromU8(zip[csvName] ?? new Uint8Array());
        expect(csv.split("\r\n").length, `${csvName} has a row per record`).toBe(held.length + 2);
        if (section in counts && section !== "tags" && section !== "sessions") {
          expect(counts[section], `the categories count of ${section}`).toBe(held.length);
        }
      }
    }
    // The position is as rough as the page promises; the connection without its token.
    expect(data.tags).toContainEqual(expect.objectContaining({ lat: 48.86, lng: 2.29 }));
    expect(JSON.stringify(data)).not.toContain(made.streamingToken);
    expect(data.verificationRequests[0]).toMatchObject({ artistName: "Walk Artist", email });
    expect(data.surveyAnswers[0]).toMatchObject({ satisfaction: 5, found: "always", comment: "Walk" });

    const deleted = await who.fetch("/privacy/delete", form({ email }));
    expect(deleted.status).toBe(303);

    expect(await rowsNaming([id, email])).toEqual([]);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_tokens WHERE token_hash = ?")
        .bind(await sha256(made.streamingToken))
        .first<{ n: number }>(),
    ).toEqual({ n: 0 });
    expect((await browser().fetch(made.verificationPath)).status).toBe(404);
    expect((await SELF.fetch(`${site}/services/survey/answers/${made.receipt}`)).status).toBe(404);
  });
});

describe("account deletion", () => {
  test("deletes the account and everything held on it at once; the same address then starts empty", async () => {
    const who = browser();
    const email = "kim@example.com";
    await signIn(who, email);
    const otherDevice = browser();
    await signIn(otherDevice, email);
    await tagSongs(email);
    await giveOfferCode(email, "TWKIM0000001");
    await requestDownload(who);
    const before = await userId(email);
    const session = who.jar.get("tw_session");

    const deleted = await who.fetch("/privacy/delete", form({ email: "Kim@Example.com " }));
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe("/privacy/delete?deleted");
    expect(deleted.headers.getSetCookie().join()).toMatch(/tw_session=; Max-Age=0/);
    expect(who.jar.has("tw_session")).toBe(false);

    for (const [table, column, value] of [
      ["users", "id", before],
      ["tags", "user_id", before],
      ["sessions", "user_id", before],
      ["data_exports", "user_id", before],
      ["offer_codes", "user_id", before],
      ["email_logins", "email", email],
      ["outbox", "to_address", email],
    ] as const) {
      const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`)
        .bind(value ?? "")
        .first<{ n: number }>();
      expect(row?.n, table).toBe(0);
    }

    const after = await who.fetch("/privacy/delete?deleted");
    const html = decode(await after.text());
    expect(html).toContain(en.t("privacy:delete.doneTitle"));
    expect(html).toContain('role="status"');
    expect(html).not.toContain('class="account-menu"');
    // Signed out on every device: the other browser's session and the old cookie are ended.
    expect((await otherDevice.fetch("/secure/status")).status).toBe(401);
    const replay = await SELF.fetch(`${site}/services/account/status`, {
      headers: { cookie: `tw_session=${session}` },
    });
    expect(replay.status).toBe(456);

    await signIn(who, email);
    const fresh = await userId(email);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(before);
    const categories = await who.fetch("/services/account/privacy/categories");
    expect(await categories.json()).toMatchObject({
      email,
      tags: 0,
      hiddenTags: 0,
      dataExports: 0,
      offerCodes: 0,
      sessions: 1,
    });
  });

  test("another address typed: 400 with the localized message, focusable, and nothing deleted", async () => {
    const who = browser();
    await signIn(who, "lea@example.com");
    const answer = await who.fetch("/ja/privacy/delete", form({ email: "someone@example.com" }));
    expect(answer.status).toBe(400);
    const html = decode(await answer.text());
    expect(html).toContain(serverStrings("ja").t("privacy:delete.mismatch", { email: "lea@example.com" }));
    expect(html).toContain('aria-invalid="true"');
    expect(await userId("lea@example.com")).toBeDefined();
  });

  test.each([
    ["/privacy/delete", { email: "max@example.com" }],
    ["/privacy/download?index", { confirm: "yes" }],
  ])("a POST to %s from another site is refused and changes nothing", async (path, fields) => {
    const who = browser();
    await signIn(who, "max@example.com");
    const forgeries: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of forgeries) {
      const answer = await who.fetch(path, form(fields, headers));
      expect(answer.status).toBe(403);
      expect(decode(await answer.text())).toContain(en.t("common:error.unauthorized"));
    }
    expect(await userId("max@example.com")).toBeDefined();
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM data_exports").first<{ n: number }>())?.n).toBe(
      0,
    );
    expect((await who.fetch("/secure/status")).status).toBe(200);
  });

  test.each([["/privacy/delete"], ["/privacy/download?index"]])(
    "a POST to %s without a session goes to sign-in",
    async (path) => {
      const answer = await browser().fetch(path, form({ email: "ned@example.com", confirm: "yes" }));
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toMatch(/^\/login\?redirect=%2Fprivacy%2F/);
    },
  );
});

describe("the data categories", () => {
  const durations = [
    ["sessions", sessionLifetimeSeconds * 1000, "30 days"],
    ["signInLinks", emailLinkLifetimeMs, "15 minutes"],
    ["tags", hiddenTagLifetimeMs, "1 day"],
    ["dataExports", dataExportLifetimeMs, "7 days"],
    ["identifications", eventRetentionDays * dayMs, "3 days"],
    ["statistics", webIdMaxAgeSeconds * 1000, "365 days"],
    ["settings", cookieMaxAgeSeconds * 1000, "180 days"],
  ] as const;

  test.each(durations)("%s: how long is the code's own number (%i ms, %s)", async (key, ms, words) => {
    expect(formatDuration("en-US", ms)).toBe(words);
    const html = decode(await (await browser().fetch("/privacy/data-categories")).text());
    const sentence = en.t(`privacy:categories.${key}.howLong`, {
      duration: words,
      record: formatDuration("en-US", expiredExportRecordMs),
    });
    expect(html).toContain(sentence);
  });

  test("signed in: how much of each is held on the account now; signed out: sign in", async () => {
    const who = browser();
    await signIn(who, "ola@example.com");
    await tagSongs("ola@example.com");
    await giveOfferCode("ola@example.com", "TWOLA0000001");
    const html = decode(await (await who.fetch("/privacy/data-categories")).text());
    expect(html).toContain(en.t("privacy:categories.yoursTitle"));
    const row = (key: string) =>
      new RegExp(`<dt>${en.t(`privacy:categories.yours.${key}`)}</dt><dd>([^<]*)</dd>`).exec(html)?.[1];
    expect(row("email")).toBe("ola@example.com");
    expect(row("tags")).toBe("1");
    expect(row("hiddenTags")).toBe("1");
    expect(row("offerCodes")).toBe("1");
    expect(row("sessions")).toBe("1");
    expect(row("signInRequests")).toBe("1");
    const anonymous = decode(await (await browser().fetch("/privacy/data-categories")).text());
    expect(anonymous).toContain(en.t("privacy:categories.yoursSignedOut"));
  });
});

describe("the pages", () => {
  const pages = [
    ["/privacy", "landing"],
    ["/privacy/download", "download"],
    ["/privacy/delete", "delete"],
    ["/privacy/data-categories", "dataCategories"],
    ["/privacy/transfer-notice", "transferNotice"],
  ] as const;

  // Every language for the landing and the deletion page (legal text); a sample for the others,
  // whose strings tests/unit/locales.test.ts checks in every language.
  const sample = new Set(["en", "de", "ja", "pt-br"]);
  const cases = languages.flatMap((language) =>
    pages
      .filter(([path]) => path === "/privacy" || path === "/privacy/delete" || sample.has(language.key))
      .map(([path, key]) => [language.key, path, key] as const),
  );

  test.each(cases)("%s %s answers with its own title and the privacy navigation", async (lang, path, key) => {
    const { t } = serverStrings(lang);
    const answer = await browser().fetch(localizedPath(lang, path));
    expect(answer.status).toBe(200);
    const html = decode(await answer.text());
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe(t(`privacy:pageTitle.${key}`));
    expect(html).toContain(`<nav class="privacy__nav" aria-label="${t("privacy:nav.label")}">`);
    expect(html).toMatch(/<h1 id="privacy-title">/);
  });

  test("both readings of when data is deleted, where the text is legal text", async () => {
    const thirty = formatDuration("en-US", privacyAnswerDays * dayMs);
    const sixty = formatDuration("en-US", transferNoticeDeletionDays * dayMs);
    const deletion = decode(await (await browser().fetch("/privacy/delete")).text());
    expect(deletion).toContain(en.t("privacy:delete.answerReading", { duration: thirty }));
    expect(deletion).toContain(en.t("privacy:delete.transferReading", { duration: sixty }));
    const notice = decode(await (await browser().fetch("/privacy/transfer-notice")).text());
    expect(notice).toContain(en.t("privacy:transfer.deletion", { duration: sixty }));
    expect(notice).toContain(en.t("privacy:transfer.otherReading", { duration: thirty }));
  });

  test("signed in, the pages are private; anonymous, they have no AMP form", async () => {
    const who = browser();
    await signIn(who, "pia@example.com");
    for (const [path] of pages) {
      const signedIn = await who.fetch(path);
      expect(signedIn.headers.get("cache-control"), path).toBe("private, no-store");
      const anonymous = await browser().fetch(path);
      expect(anonymous.headers.get("cache-control") ?? "", path).not.toMatch(/private/);
      expect(await anonymous.text(), path).not.toContain('rel="amphtml"');
      expect((await browser().fetch(`/amp${path}`)).status, path).toBe(404);
    }
  });
});
