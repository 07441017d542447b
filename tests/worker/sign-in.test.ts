import "#tests/all-languages.ts";
import { env, SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import {
  accountCookieNames,
  linksPerAddress,
  linksPerAddressAndClient,
  linksPerClient,
} from "#rules/account.ts";

// Sign-in end to end inside workerd: the account service, the link's landing, the session, the
// status endpoint, sign-out, and what a shared cache may see.

import { agent, type Browser, browser, linkFor, signIn, site } from "./browser-jar";

function askForLink(who: Browser, body: Record<string, unknown>) {
  return who.fetch("/services/account/login/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      callback: `${site}/validate-email/web`,
      locale: "en-US",
      userAgent: agent,
      inid: "",
      ...body,
    }),
  });
}

describe("asking for a sign-in link", () => {
  test("the form sends a localized mail with a single-use link and shows check your email", async () => {
    const who = browser();
    const form = new URLSearchParams({ email: "Ana@Example.com", redirect: "/charts" });
    const answer = await who.fetch("/de/login?index", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const { t } = serverStrings("de");
    expect(html).toContain(t("account:checkEmail.title"));
    expect(html).toContain("ana@example.com");
    expect(who.jar.has("tw_device")).toBe(true);
    const outbox = (await (await SELF.fetch(`${site}/services/account/outbox`)).json()) as {
      mails: { to: string; subject: string; text: string; html: string }[];
    };
    const mail = outbox.mails.find((m) => m.to === "ana@example.com");
    expect(mail?.subject).toBe(t("account:mail.subject"));
    expect(mail?.text).toMatch(
      /https:\/\/tunewave\.test\/de\/validate-email\/web\?redirect=%2Fcharts&key=[\w-]+&customtoken=[\w-]+/,
    );
    expect(mail?.html).toContain('<html lang="de"');
  });

  const badAddresses = [
    "",
    " ",
    "plainaddress",
    "@example.com",
    "ana@",
    "ana@example",
    "ana@@example.com",
    "ana example@example.com",
    "ana@exa mple.com",
    ".ana@example.com",
    "ana.@example.com",
    "an..a@example.com",
    "ana@-example.com",
    "ana@example-.com",
    "ana@example..com",
    "ana@.example.com",
    `${"a".repeat(65)}@example.com`,
    `ana@${"b".repeat(64)}.com`,
    `ana@${"c".repeat(63)}.${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(60)}.com`,
    "ana@example.com<script>",
    "<ana@example.com>",
    "ana@exam_ple.com",
    "ana(comment)@example.com",
    "ana@[127.0.0.1]",
  ];
  test.each(badAddresses.map((address) => [address]))(
    "%j is refused by the service with 400",
    async (address) => {
      const answer = await askForLink(browser(), { email: address });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: "invalidparam" });
    },
  );

  test.each(badAddresses.slice(0, 6).map((address) => [address]))(
    "%j on the form gives the localized message, the typed text escaped",
    async (address) => {
      const who = browser();
      const answer = await who.fetch("/fr/login?index", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: `${address}<b>` }),
      });
      expect(answer.status).toBe(400);
      const html = await answer.text();
      expect(html).toContain(serverStrings("fr").t("account:errors.invalidEmail").replaceAll("'", "&#x27;"));
      expect(html).not.toContain("<b>");
    },
  );

  test("a callback to another site, or with a redirect off the site, is refused", async () => {
    for (const callback of [
      "https://evil.example/validate-email/web",
      `${site}/somewhere-else`,
      `${site}/validate-email/web?redirect=//evil.example`,
      `${site}/validate-email/web?redirect=https://evil.example`,
    ]) {
      const answer = await askForLink(browser(), { email: "ben@example.com", callback });
      expect(answer.status, callback).toBe(400);
    }
  });

  test("a body that is not JSON is a 400, not a 500", async () => {
    const answer = await browser().fetch("/services/account/login/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(answer.status).toBe(400);
  });

  test("JSON sent as text/plain (what a form can send) is refused with 415, and no mail is written", async () => {
    const answer = await browser().fetch("/services/account/login/email", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({
        email: "plain@example.com",
        callback: `${site}/validate-email/web`,
        locale: "en",
      }),
    });
    expect(answer.status).toBe(415);
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    const outbox = (await (await SELF.fetch(`${site}/services/account/outbox`)).json()) as {
      mails: { to: string }[];
    };
    expect(outbox.mails.some((m) => m.to === "plain@example.com")).toBe(false);
  });

  test(`a stranger's requests for someone's address do not lock its owner out (decision 030, finding 10)`, async () => {
    const stranger = browser();
    for (let i = 0; i < linksPerAddressAndClient; i += 1) {
      expect((await askForLink(stranger, { email: "owner@example.com" })).status).toBe(202);
    }
    // The stranger's own client is held to the per-address-and-client limit ...
    expect((await askForLink(stranger, { email: "owner@example.com" })).status).toBe(429);
    // ... and the owner, on another client, still gets a link.
    expect((await askForLink(browser(), { email: "owner@example.com" })).status).toBe(202);
  });

  test("a device that signed in to the account before gets its link past the address-wide limit", async () => {
    const owner = browser();
    await signIn(owner, "known@example.com");
    for (let i = 0; i < linksPerAddress; i += 1) {
      await askForLink(browser(), { email: "known@example.com" });
    }
    expect((await askForLink(browser(), { email: "known@example.com" })).status).toBe(429);
    expect((await askForLink(owner, { email: "known@example.com" })).status).toBe(202);
  });

  test("X-Real-IP is not a client address: a client cannot pick a fresh rate-limit bucket with it", async () => {
    const ask = (n: number) =>
      SELF.fetch(`${site}/services/account/login/email`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-real-ip": `203.0.113.${n}` },
        body: JSON.stringify({
          email: `realip${n}@example.com`,
          callback: `${site}/validate-email/web`,
          locale: "en",
          userAgent: agent,
          inid: "",
        }),
      });
    for (let n = 0; n < linksPerClient; n += 1) expect((await ask(n)).status).toBe(202);
    expect((await ask(linksPerClient)).status).toBe(429);
  });

  test(`more than ${linksPerAddress} links an hour for one address: 429 with Retry-After`, async () => {
    for (let i = 0; i < linksPerAddress; i += 1) {
      expect((await askForLink(browser(), { email: "cleo@example.com" })).status).toBe(202);
    }
    const refused = await askForLink(browser(), { email: "cleo@example.com" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("3600");
  });

  test(`more than ${linksPerClient} links an hour from one client: 429, and the form says so`, async () => {
    const who = browser();
    for (let i = 0; i < linksPerClient; i += 1) {
      expect((await askForLink(who, { email: `dan${i}@example.com` })).status).toBe(202);
    }
    expect((await askForLink(who, { email: "dan-last@example.com" })).status).toBe(429);
    const page = await who.fetch("/login?index", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "dan-page@example.com" }),
    });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain(serverStrings("en").t("account:errors.tooMany"));
  });

  test("a closed account: 404 with the spec's message, and no mail", async () => {
    await env.DB.prepare(
      "INSERT INTO users (id, email, created_at, closed_at) VALUES ('closed-1', 'gone@example.com', 0, 1)",
    ).run();
    const answer = await askForLink(browser(), { email: "gone@example.com" });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({
      message: "We could not find an account with that email, it is either invalid or closed",
    });
  });
});

describe("following the link", () => {
  test("signs in on the same browser, back to the page the person came from", async () => {
    const who = browser();
    const landed = await signIn(who, "eve@example.com", "/charts?x=1");
    expect(landed.status).toBe(303);
    expect(landed.headers.get("location")).toBe("/charts?x=1");
    const cookie = landed.headers.getSetCookie().find((c) => c.startsWith("tw_session="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=2592000/);
    expect(cookie).not.toMatch(/eve/);
  });

  test("a second time: the used screen", async () => {
    const who = browser();
    await signIn(who, "finn@example.com");
    const again = await who.fetch(await linkFor("finn@example.com"));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(serverStrings("en").t("account:validate.usedTitle"));
  });

  test("a stale session cookie in the browser: the fresh link's session stays set (decision 030, finding 8)", async () => {
    const who = browser();
    who.jar.set("tw_session", "s".repeat(43));
    await askForLink(who, { email: "stale@example.com" });
    const landed = await who.fetch(await linkFor("stale@example.com"));
    expect(landed.headers.get("location")).toBe("/");
    const sessionCookies = landed.headers.getSetCookie().filter((c) => c.startsWith("tw_session="));
    expect(sessionCookies).toHaveLength(1);
    expect(sessionCookies[0]).not.toMatch(/Max-Age=0/);
    expect((await who.fetch("/secure/status")).status).toBe(200);
  });

  test("after 15 minutes: the expired screen", async () => {
    const who = browser();
    await askForLink(who, { email: "gus@example.com" });
    await env.DB.prepare("UPDATE email_logins SET expires_at = 0 WHERE email = 'gus@example.com'").run();
    const landed = await who.fetch(await linkFor("gus@example.com"));
    expect(landed.status).toBe(410);
    expect(await landed.text()).toContain(serverStrings("en").t("account:validate.expiredTitle"));
  });

  test("in another browser: the wrong-device screen, and the link still works where it was asked", async () => {
    const asker = browser();
    await askForLink(asker, { email: "hana@example.com" });
    const link = await linkFor("hana@example.com");
    const other = await browser().fetch(link);
    expect(other.status).toBe(403);
    expect(await other.text()).toContain(serverStrings("en").t("account:validate.wrongDeviceTitle"));
    expect((await asker.fetch(link)).status).toBe(303);
  });

  test("without its custom token: the nocustomtoken screen; a forged token: unknown", async () => {
    const who = browser();
    await askForLink(who, { email: "ivo@example.com" });
    const link = new URL(await linkFor("ivo@example.com"), site);
    link.searchParams.delete("customtoken");
    const missing = await who.fetch(link.pathname + link.search);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain(serverStrings("en").t("account:validate.noTokenTitle"));
    link.searchParams.set("customtoken", "A".repeat(43));
    const forged = await who.fetch(link.pathname + link.search);
    expect(forged.status).toBe(404);
  });

  test("two tabs opening the same link at once: exactly one signs in", async () => {
    const who = browser();
    await askForLink(who, { email: "jo@example.com" });
    const link = await linkFor("jo@example.com");
    const answers = await Promise.all([who.fetch(link), who.fetch(link), who.fetch(link)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409, 409]);
  });

  test.each([
    ["//evil.example"],
    ["https://evil.example"],
    ["/\\evil.example"],
    ["/%2F%2Fevil.example"],
    ["/%5Cevil.example"],
    ["%2F%2Fevil.example"],
    ["javascript:alert(1)"],
    ["/\t/evil.example"],
    ["http:evil.example"],
  ])("a link whose redirect is %j lands on the home page", async (redirect) => {
    const who = browser();
    await askForLink(who, { email: "kai@example.com" });
    const link = new URL(await linkFor("kai@example.com"), site);
    link.searchParams.set("redirect", redirect);
    const landed = await who.fetch(link.pathname + link.search);
    expect(landed.status).toBe(303);
    expect(landed.headers.get("location")).toBe("/");
  });

  test("the form drops a redirect off the site before it is mailed", async () => {
    const who = browser();
    await who.fetch("/login?index", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "lea@example.com", redirect: "//evil.example" }),
    });
    expect(await linkFor("lea@example.com")).not.toContain("redirect");
  });

  test("temp=1 signs in for the browser session only", async () => {
    const who = browser();
    await askForLink(who, { email: "max@example.com" });
    const landed = await who.fetch(`${await linkFor("max@example.com")}&temp=1`);
    const cookie = landed.headers.getSetCookie().find((c) => c.startsWith("tw_session="));
    expect(cookie).toBeDefined();
    expect(cookie).not.toMatch(/Max-Age/);
  });
});

describe("the session", () => {
  test("/secure/status: the login state with a session, never stored", async () => {
    const who = browser();
    await signIn(who, "nia@example.com");
    const status = await who.fetch("/secure/status");
    expect(status.status).toBe(200);
    expect(status.headers.get("cache-control")).toBe("no-store");
    expect(await status.json()).toEqual({
      loggedin: true,
      authenticationType: "FIREBASE",
      method: "email",
      storage: "account",
      hasLibraryZone: false,
      email: "nia@example.com",
    });
  });

  test("/secure/status without a session: 401 with the sign-in address to fill in", async () => {
    const status = await browser().fetch("/secure/status");
    expect(status.status).toBe(401);
    expect(status.headers.get("cache-control")).toBe("no-store");
    expect(await status.json()).toEqual({
      error: "unauthorized",
      redirectUrl: "/login?redirect={redirectPath}",
    });
  });

  test("a session ended elsewhere: the service says 456, the site signs the browser out", async () => {
    const who = browser();
    await signIn(who, "omar@example.com");
    await env.DB.prepare(
      "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = 'omar@example.com')",
    ).run();
    const cookie = `tw_session=${who.jar.get("tw_session")}`;
    const service = await SELF.fetch(`${site}/services/account/status`, { headers: { cookie } });
    expect(service.status).toBe(456);
    expect(service.headers.getSetCookie().join()).toMatch(/tw_session=; Max-Age=0/);
    const page = await who.fetch("/");
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('class="account-menu"');
    expect(who.jar.has("tw_session")).toBe(false);
    expect((await who.fetch("/secure/status")).status).toBe(401);
  });

  test("signed in, pages show the account and are private; anonymous pages show sign-in and set no session", async () => {
    const anonymous = browser();
    const plain = await anonymous.fetch("/charts");
    expect(plain.headers.get("cache-control") ?? "").not.toMatch(/private/);
    expect(plain.headers.getSetCookie().join()).not.toMatch(/tw_session|tw_device/);
    const plainHtml = await plain.text();
    expect(plainHtml).toMatch(/class="account-link"[^>]* href="\/login\?redirect=%2Fcharts"/);
    expect(plainHtml).not.toContain('class="account-menu"');

    const who = browser();
    await signIn(who, "pia@example.com");
    for (const path of ["/", "/charts", "/de/company", "/search?term=a"]) {
      const page = await who.fetch(path);
      expect(page.headers.get("cache-control"), path).toBe("private, no-store");
      expect(page.headers.get("vary"), path).toMatch(/Cookie/);
      const html = await page.text();
      expect(html, path).toContain('class="account-menu"');
      expect(html, path).toContain("pia@example.com");
    }
  });

  test("AMP pages never carry the session", async () => {
    const who = browser();
    await signIn(who, "quinn@example.com");
    const amp = await who.fetch("/amp/company");
    expect(amp.status).toBe(200);
    expect(amp.headers.get("cache-control") ?? "").not.toMatch(/private/);
    expect(await amp.text()).not.toContain("quinn@example.com");
  });

  test("sign-out ends the session on the service and clears the cookie", async () => {
    const who = browser();
    await signIn(who, "rui@example.com");
    const session = who.jar.get("tw_session");
    const out = await who.fetch("/logout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: site },
      body: new URLSearchParams({ redirect: "/charts" }),
    });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/charts");
    expect(who.jar.has("tw_session")).toBe(false);
    const replay = await SELF.fetch(`${site}/services/account/status`, {
      headers: { cookie: `tw_session=${session}` },
    });
    expect(replay.status).toBe(456);
  });

  test("sign-out from another site is refused; a GET signs nobody out", async () => {
    const who = browser();
    await signIn(who, "sol@example.com");
    const forged = await who.fetch("/logout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: "",
    });
    expect(forged.status).toBe(403);
    expect((await who.fetch("/logout")).status).toBe(302);
    expect((await who.fetch("/secure/status")).status).toBe(200);
  });

  test("the sign-out service refuses another site's post and clears no cookie (decision 030, finding 9)", async () => {
    const who = browser();
    await signIn(who, "sue@example.com");
    for (const headers of <Record<string, string>[]>[
      { "content-type": "text/plain", origin: "https://evil.example" },
      { "content-type": "application/json", origin: "https://shop.tunewave.test" },
      { "content-type": "text/plain", "sec-fetch-site": "cross-site", origin: "" },
    ]) {
      const init = new Headers(headers);
      if (init.get("origin") === "") init.delete("origin");
      const forged = await who.fetch("/services/account/logout", {
        method: "POST",
        headers: init,
        body: "{}",
      });
      expect(forged.status).toBe(403);
      expect(forged.headers.getSetCookie()).toEqual([]);
    }
    expect((await who.fetch("/secure/status")).status).toBe(200);
  });

  test("signed in, /login goes on to where the sign-in was meant to lead", async () => {
    const who = browser();
    await signIn(who, "tom@example.com");
    const login = await who.fetch("/login?redirect=%2Fcharts");
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/charts");
  });
});

describe("the outbox", () => {
  test("/dev/outbox shows the mail and its link", async () => {
    const who = browser();
    await askForLink(who, { email: "uma@example.com" });
    const page = await who.fetch("/dev/outbox");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("uma@example.com");
    expect(html).toMatch(/<a href="https:\/\/tunewave\.test\/validate-email\/web\?key=/);
  });
});

test("a refused link's screen is kept by no cache", async () => {
  const answer = await browser().fetch(
    "/validate-email/web?key=AAAAAAAAAAAAAAAAAAAAAA&customtoken=BBBBBBBBBBBBBBBBBBBBBB",
  );
  expect(answer.status).toBe(404);
  expect(answer.headers.get("cache-control")).toBe("no-store");
});

test.each([
  ["en", "/login/icloud/complete?ckWebAuthToken=TOKEN-FROM-APPLE"],
  ["de", "/de/login/icloud/complete?ckWebAuthToken=TOKEN-FROM-APPLE"],
  ["en", "/login/icloud/complete"],
] as const)(
  "the iCloud popup's return, on a site where iCloud sign-in is not configured, says so in %s, answers 404 and signs no one in (%s)",
  async (lang, path) => {
    const { t } = serverStrings(lang);
    const who = browser();
    const answer = await who.fetch(path);
    // Nothing signed in: not a success status.
    expect(answer.status).toBe(404);
    const html = await answer.text();
    // The page's strings travel with it for the browser: what is said is what the markup shows.
    expect(html).toContain(
      `<p class="account-message" role="alert">${t("account:login.icloudUnavailable").replaceAll("'", "&#x27;")}</p>`,
    );
    expect(html).not.toMatch(/<p role="status">/);
    // The token stays out of the server's answer.
    expect(html).not.toContain("TOKEN-FROM-APPLE");
    expect(who.jar.has(accountCookieNames.session)).toBe(false);
  },
);
