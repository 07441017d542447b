import "#tests/all-languages.ts";
import { env, SELF } from "cloudflare:test";
import { expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { surveyAnswersPerClient, verificationRequestsPerClient } from "#rules/forms.ts";
import { browser, signIn, site } from "./browser-jar";

// The survey and the verification form inside workerd (decision 024): valid and invalid answers, what
// the origin stored, one survey answer per visitor, the rate limit, and cross-site refusal.

const en = serverStrings("en");
const de = serverStrings("de");

const post = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields),
});

const escaped = (text: string) => text.replaceAll("'", "&#x27;");

const goodAnswer = { satisfaction: "4", found: "mostly", comment: "Found <b>everything</b>" };
const goodRequest = {
  artistName: "Mattias Westlund",
  role: "manager",
  email: "Manager@Example.org",
  link: "https://example.org/mattias",
  message: "",
};

test("a survey answer is stored, shown on the thanks page, and a second one is refused politely", async () => {
  const visitor = browser();
  expect((await visitor.fetch("/survey")).status).toBe(200);
  const sent = await visitor.fetch("/survey?index", post(goodAnswer));
  expect(sent.status).toBe(303);
  expect(sent.headers.get("location")).toBe("/survey/thanks");
  const thanks = await visitor.fetch("/survey/thanks");
  expect(thanks.status).toBe(200);
  expect(thanks.headers.get("cache-control")).toBe("private, no-store");
  const html = await thanks.text();
  expect(html).toContain(en.t("forms:survey.score.4"));
  expect(html).toContain("Found &lt;b&gt;everything&lt;/b&gt;");
  const row = await env.DB.prepare("SELECT satisfaction, found, comment, lang FROM survey_answers").first();
  expect(row).toEqual({ satisfaction: 4, found: "mostly", comment: "Found <b>everything</b>", lang: "en" });

  const again = await visitor.fetch("/survey?index", post({ ...goodAnswer, satisfaction: "1" }));
  expect(again.status).toBe(409);
  expect(await again.text()).toContain(escaped(en.t("forms:survey.alreadyAnswered")));
  const page = await (await visitor.fetch("/survey")).text();
  expect(page).toContain(escaped(en.t("forms:survey.alreadyAnswered")));
  expect(page).not.toContain('name="satisfaction"');
  const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM survey_answers").first<{ n: number }>();
  expect(count?.n).toBe(1);
});

test("a survey answer is never read back by browser id: only with the receipt its browser keeps (HttpOnly)", async () => {
  const visitor = browser();
  await visitor.fetch("/survey");
  const webId = visitor.jar.get("webId") ?? "";
  expect(webId).toMatch(/^[0-9a-f-]{36}$/);
  const sent = await visitor.fetch("/survey?index", post(goodAnswer));
  expect(sent.status).toBe(303);
  expect(sent.headers.getSetCookie().join()).toMatch(/surveyReceipt=[\w-]{43}; .*HttpOnly/);

  const byBrowserId = await SELF.fetch(`${site}/services/survey/answers/${webId}`);
  expect(byBrowserId.status).not.toBe(200);
  expect(await byBrowserId.text()).not.toContain("everything");
  const receipt = visitor.jar.get("surveyReceipt") ?? "";
  const byReceipt = await SELF.fetch(`${site}/services/survey/answers/${receipt}`);
  expect(byReceipt.status).toBe(200);
  expect(await byReceipt.json()).toMatchObject({ satisfaction: 4, comment: "Found <b>everything</b>" });
  // Another browser, even with the same webId, sees the survey, not the answer.
  const other = browser();
  other.jar.set("webId", webId);
  const thanks = await other.fetch("/survey/thanks");
  expect(thanks.status).toBe(303);
  expect(await (await other.fetch("/survey")).text()).toContain('name="satisfaction"');
});

test("an answer planted in someone's browser id is not theirs: their page still asks, and they can answer", async () => {
  const victim = browser();
  await victim.fetch("/survey");
  const webId = victim.jar.get("webId") ?? "";
  const planted = await SELF.fetch(`${site}/services/survey/answers`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: "https://tunewave.test",
      "cf-connecting-ip": "192.0.2.66",
    },
    body: JSON.stringify({
      satisfaction: 1,
      found: "rarely",
      comment: "planted",
      visitor: webId,
      lang: "en",
    }),
  });
  await planted.arrayBuffer();
  const page = await (await victim.fetch("/survey")).text();
  expect(page).toContain('name="satisfaction"');
  const own = await victim.fetch("/survey?index", post(goodAnswer));
  expect(own.status).toBe(303);
  const thanks = await (await victim.fetch("/survey/thanks")).text();
  expect(thanks).not.toContain("planted");
  expect(thanks).toContain(en.t("forms:survey.score.4"));
});

test("signed in, the answer is the account's: one per account, on every browser", async () => {
  const first = browser();
  await signIn(first, "surveyed@example.com");
  expect((await first.fetch("/survey?index", post(goodAnswer))).status).toBe(303);
  const second = browser();
  await signIn(second, "surveyed@example.com");
  const again = await second.fetch("/survey?index", post(goodAnswer));
  expect(again.status).toBe(409);
  const owned = await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM survey_answers a JOIN users u ON u.id = a.user_id WHERE u.email = ?",
  )
    .bind("surveyed@example.com")
    .first<{ n: number }>();
  expect(owned?.n).toBe(1);
});

test.each([
  [{ found: "mostly" }, "satisfaction", "choose"],
  [{ satisfaction: "9", found: "mostly" }, "satisfaction", "choose"],
  [{ satisfaction: "3", found: "never" }, "found", "choose"],
  [{ satisfaction: "3", found: "always", comment: "x".repeat(1001) }, "comment", "tooLong"],
] as const)(
  "a survey answer %o is refused with its field's message in the visitor's language",
  async (fields, field, error) => {
    const visitor = browser();
    const answer = await visitor.fetch("/de/survey?index", post(fields));
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain(`id="survey-${field}-error"`);
    expect(html).toContain(escaped(de.t(`forms:errors.${error}`)));
    expect(html).toContain(escaped(de.t("forms:outcome.invalid")));
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM survey_answers").first<{ n: number }>();
    expect(count?.n).toBe(0);
  },
);

test("a verification request is stored and confirmed, read back from the origin", async () => {
  const artist = browser();
  const sent = await artist.fetch("/verify?index", post(goodRequest));
  expect(sent.status).toBe(303);
  const location = sent.headers.get("location") ?? "";
  expect(location).toMatch(/^\/verify\/[A-Za-z0-9_-]{22}$/);
  const confirmation = await artist.fetch(location);
  expect(confirmation.status).toBe(200);
  const html = await confirmation.text();
  expect(html).toContain("Mattias Westlund");
  expect(html).toContain("manager@example.org");
  expect(html).toContain('content="noindex"');
  const id = location.split("/").pop();
  const stored = await SELF.fetch(`${site}/services/verify/requests/${id}`);
  expect(stored.status).toBe(200);
  expect(await stored.json()).toMatchObject({
    artistName: "Mattias Westlund",
    role: "manager",
    status: "received",
  });
  expect((await artist.fetch("/verify/AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
  expect((await artist.fetch("/verify/not-an-id")).status).toBe(404);
});

test.each([
  [{ ...goodRequest, artistName: " " }, "artistName", "required"],
  [{ ...goodRequest, email: "nobody" }, "email", "email"],
  [{ ...goodRequest, link: "javascript:alert(1)" }, "link", "link"],
  [{ ...goodRequest, role: "fan" }, "role", "choose"],
] as const)(
  "a verification request with a bad %s is refused, the form filled in again",
  async (fields, field, error) => {
    const artist = browser();
    const answer = await artist.fetch("/verify?index", post(fields));
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain(`id="verify-${field}-error"`);
    expect(html).toContain(escaped(en.t(`forms:errors.${error}`)));
    expect(html).not.toContain("<script>alert");
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM verification_requests").first<{
      n: number;
    }>();
    expect(count?.n).toBe(0);
  },
);

test("a form another site posted changes nothing", async () => {
  const visitor = browser();
  for (const [path, fields] of [
    ["/survey?index", goodAnswer],
    ["/verify?index", goodRequest],
  ] as const) {
    const answer = await visitor.fetch(path, post(fields, { origin: "https://evil.example" }));
    expect(answer.status, path).toBe(403);
  }
  const counts = await env.DB.prepare(
    "SELECT (SELECT COUNT(*) FROM survey_answers) AS survey, (SELECT COUNT(*) FROM verification_requests) AS verify",
  ).first();
  expect(counts).toEqual({ survey: 0, verify: 0 });
});

test("one client may send only so many forms an hour", async () => {
  const first = browser();
  for (let i = 0; i < verificationRequestsPerClient; i += 1) {
    expect((await first.fetch("/verify?index", post(goodRequest))).status).toBe(303);
  }
  const refused = await first.fetch("/verify?index", post(goodRequest));
  expect(refused.status).toBe(429);
  expect(await refused.text()).toContain(escaped(en.t("forms:outcome.limited")));

  // Survey answers: new visitors (no webId cookie yet) from one address.
  const ip = "203.0.113.7";
  const answer = (headers: Record<string, string>) =>
    SELF.fetch(`${site}/survey?index`, { ...post(goodAnswer, headers), redirect: "manual" });
  for (let i = 0; i < surveyAnswersPerClient; i += 1) {
    const sent = await answer({ "cf-connecting-ip": ip, host: new URL(site).host });
    await sent.arrayBuffer();
    expect(sent.status).toBe(303);
  }
  const over = await answer({ "cf-connecting-ip": ip, host: new URL(site).host });
  expect(over.status).toBe(429);
  await over.arrayBuffer();
});
