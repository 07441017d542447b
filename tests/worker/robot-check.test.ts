import "#tests/all-languages.ts";
import { env, fetchMock, SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { browser, site } from "./browser-jar";

// The e-mail sign-in's robot check (spec 000 §5 "please make sure you are not a robot"; decision
// 042): this project of the layer runs with Turnstile configured (vitest.worker.config.ts), and
// Turnstile's siteverify is answered by fetchMock. Everywhere else there is no check.

const siteverify = "https://challenges.cloudflare.com";
const json = { "content-type": "application/json" };
const { t } = serverStrings("en");

beforeAll(() => {
  fetchMock.activate();
  fetchMock.disableNetConnect();
});

afterEach(() => {
  fetchMock.assertNoPendingInterceptors();
});

/** siteverify answers once with `answer`; what the site sent it is kept. */
function siteverifyAnswers(status: number, answer: unknown) {
  const sent: { body?: URLSearchParams } = {};
  fetchMock
    .get(siteverify)
    .intercept({ path: "/turnstile/v0/siteverify", method: "POST" })
    .reply((request) => {
      sent.body = new URLSearchParams(String(request.body));
      return { statusCode: status, data: JSON.stringify(answer), responseOptions: { headers: json } };
    });
  return sent;
}

async function outboxHas(email: string): Promise<boolean> {
  const outbox = (await (await SELF.fetch(`${site}/services/account/outbox`)).json()) as {
    mails: { to: string }[];
  };
  return outbox.mails.some((mail) => mail.to === email);
}

function askForLink(email: string, token?: string) {
  const form = new URLSearchParams({ email });
  if (token !== undefined) form.set("cf-turnstile-response", token);
  const who = browser();
  return {
    who,
    answer: who.fetch("/login?index", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    }),
  };
}

describe("with Turnstile configured", () => {
  test("the login page shows the widget for the login action, and pages allow Turnstile's script and frame", async () => {
    const answer = await browser().fetch("/login");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toMatch(/class="cf-turnstile account-robot-check"/);
    expect(html).toContain(`data-sitekey="${env.TURNSTILE_SITE_KEY}"`);
    expect(html).toContain('data-action="login"');
    // The secret never reaches a page.
    expect(html).not.toContain(env.TURNSTILE_SECRET_KEY ?? "no secret");
    const policy = answer.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/script-src [^;]*https:\/\/challenges\.cloudflare\.com/);
    expect(policy).toMatch(/frame-src [^;]*https:\/\/challenges\.cloudflare\.com/);
  });

  test("a passed check sends the link: siteverify gets the secret, the token and the client's address", async () => {
    const sent = siteverifyAnswers(200, {
      success: true,
      hostname: "tunewave.test",
      action: "login",
      "error-codes": [],
    });
    const { who, answer } = askForLink("robot-passed@example.com", "token-1");
    const page = await answer;
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(t("account:checkEmail.title"));
    expect(sent.body?.get("secret")).toBe(env.TURNSTILE_SECRET_KEY);
    expect(sent.body?.get("response")).toBe("token-1");
    expect(sent.body?.get("remoteip")).toBe(who.ip);
    expect(await outboxHas("robot-passed@example.com")).toBe(true);
  });

  test.each([
    { name: "no token", token: undefined, answer: undefined },
    { name: "an empty token", token: "", answer: undefined },
    { name: "a token longer than Turnstile makes", token: "x".repeat(2049), answer: undefined },
    {
      name: "a token Turnstile refuses",
      token: "token-2",
      answer: { success: false, "error-codes": ["invalid-input-response"] },
    },
    {
      name: "a token made on another site",
      token: "token-3",
      answer: { success: true, hostname: "evil.example", action: "login", "error-codes": [] },
    },
    {
      name: "a token made for another form",
      token: "token-4",
      answer: { success: true, hostname: "tunewave.test", action: "survey", "error-codes": [] },
    },
  ])("$name: 403, the robot message, the address kept, no mail", async ({ token, answer }) => {
    if (answer) siteverifyAnswers(200, answer);
    const email = `robot-${token?.length ?? "none"}-${answer ? "asked" : "not-asked"}@example.com`;
    const page = await askForLink(email, token).answer;
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain(t("account:errors.robot"));
    expect(html).toContain(`value="${email}"`);
    expect(await outboxHas(email)).toBe(false);
  });

  test.each([
    { name: "siteverify fails", status: 500, answer: { error: "internal" } },
    { name: "siteverify answers something else", status: 200, answer: ["not", "an", "answer"] },
  ])("$name: 503 with the try-again message, the address kept, no mail", async ({ status, answer }) => {
    siteverifyAnswers(status, answer);
    const email = `robot-unavailable-${status}@example.com`;
    const page = await askForLink(email, "token-5").answer;
    expect(page.status).toBe(503);
    const html = await page.text();
    expect(html).toContain(t("account:errors.robotUnavailable"));
    expect(html).toContain(`value="${email}"`);
    expect(await outboxHas(email)).toBe(false);
  });

  test("a mistyped address is refused before Turnstile is asked", async () => {
    const page = await askForLink("not-an-address", "token-6").answer;
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(t("account:errors.invalidEmail"));
  });
});
