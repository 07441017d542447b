import { SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { serverStrings } from "../../app/i18n.server";
import { localizedPath } from "../../edge/path";
import { type RegistrationAnswer, registrationAnswer } from "../webauthn-registration";
import { type Browser, browser, signIn, site } from "./browser-jar";

// Offers inside workerd: the campaign data call, the page in each state and several languages,
// malformed names, and the code: handed out only after every check, with a registration answer
// the origin verifies (challenge, origin, RP ID, user verification), once per account and
// campaign, and never for a request another site made.

const desktop = "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36";
const iphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
let people = 0;

function get(path: string, userAgent = desktop): Promise<Response> {
  return SELF.fetch(`${site}${path}`, { redirect: "manual", headers: { "user-agent": userAgent } });
}

function decode(value: string): string {
  return value.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

const h1 = (html: string) => decode(/<h1 id="offer-title">([^<]*)<\/h1>/.exec(html)?.[1] ?? "");
const h2 = (html: string) => decode(/<h2 id="offer-state-title">([^<]*)<\/h2>/.exec(html)?.[1] ?? "");

// --- A WebAuthn registration answer for this site -----------------------------------------------

/** A registration answer for this site, with the parts a test changes. */
function registration(answer: Partial<RegistrationAnswer> & { challenge: string }) {
  return registrationAnswer({ origin: site, rpId: "tunewave.test", ...answer });
}

// --- The page's redemption route, as the page's script calls it --------------------------------

function post(who: Browser, path: string, body: unknown, headers: Record<string, string> = {}) {
  return who.fetch(path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: site,
      "sec-fetch-site": "same-origin",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

async function signedIn(): Promise<Browser> {
  people += 1;
  const who = browser();
  await signIn(who, `offers.${people}.${Date.now()}@example.com`);
  return who;
}

async function challengeFor(who: Browser, path: string): Promise<string> {
  const answer = await post(who, path, { step: "challenge" });
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as { state: string; challenge: string };
  expect(body.state).toBe("available");
  return body.challenge;
}

describe("/campaign/data/{name}.json", () => {
  test("a campaign, checked by the edge's schema, cacheable for five minutes", async () => {
    const response = await get("/campaign/data/five-months.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(await response.json()).toEqual({
      name: "five-months",
      service: "Apple Music",
      months: 5,
      countries: ["US", "GB", "CA"],
      platforms: ["ios", "android"],
      smartphoneOnly: true,
      startsAt: "2025-01-01T00:00:00.000Z",
      endsAt: "2031-01-01T00:00:00.000Z",
    });
  });

  test.each([
    ["/campaign/data/no-such-offer.json", 404, "There is currently no offer available."],
    ["/campaign/data/Bad_Name.json", 400, "Malformed offer name"],
    ["/campaign/data/three-free", 400, "Malformed offer name"],
    ["/campaign/data/..%2fservices%2fhealth.json", 404, "No such service"],
  ])("%s answers %i", async (path, status, message) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { message: string }).message).toBe(message);
  });
});

describe("the offer page", () => {
  const states = [
    ["/campaign/first-month?co=GB", desktop, 200, "signInRequired"],
    ["/campaign/first-month?co=ZA", desktop, 200, "notInCountry"],
    ["/campaign/three-free?co=DE", desktop, 200, "notOnPlatform"],
    ["/campaign/iphone-four?co=US", desktop, 200, "notOnPlatform"],
    ["/campaign/five-months?co=US", desktop, 200, "notOnPlatform"],
    ["/campaign/iphone-four?co=US", iphone, 200, "signInRequired"],
    ["/campaign/holiday-2024?co=GB", desktop, 410, "ended"],
  ] as const;
  for (const lang of ["en", "de", "ja"] as const) {
    const { t } = serverStrings(lang);
    test.each(states)(`${lang}: %s (%s) answers %i in state %s`, async (path, agent, status, state) => {
      const [pathname = "", query] = path.split("?");
      const response = await get(`${localizedPath(lang, pathname)}?${query}`, agent);
      expect(response.status).toBe(status);
      // Shared caches only (the document cache, decision 027-html-cache); a browser keeps nothing.
      expect(response.headers.get("cache-control")).toMatch(/^s-maxage=\d+, stale-if-error=\d+$/);
      const html = await response.text();
      expect(h2(html)).toBe(t(`offers:states.${state}.title`));
      expect(h1(html)).toContain("Apple Music");
      // Spec 000 §2: the campaign's name is the statistics' experiment name.
      // (Remix streams the root data as an escaped turbo-stream: "expName","{name}".)
      expect(html).toContain(`\\"expName\\",\\"${pathname.split("/")[2]}\\"`);
    });

    test(`${lang}: a campaign nobody runs is 404 with "no offer", a malformed name 400`, async () => {
      const none = await get(localizedPath(lang, "/campaign/no-such-offer"));
      expect(none.status).toBe(404);
      const html = await none.text();
      expect(h1(html)).toBe(t("offers:states.noOffer.title"));
      expect(decode(html)).toContain(t("offers:states.noOffer.message"));

      for (const bad of ["/campaign/Bad_Name", "/campaign/a%3Cscript%3E", `/campaign/${"x".repeat(40)}`]) {
        const malformed = await get(localizedPath(lang, bad));
        expect(malformed.status, bad).toBe(400);
        expect(await malformed.text()).not.toContain("a<script>");
      }
    });
  }

  test("the spec's messages, word for word, in English", async () => {
    const cases = [
      ["/campaign/no-such-offer", desktop, "There is currently no offer available."],
      ["/campaign/first-month?co=ZA", desktop, "This offer is not available in your country."],
      ["/campaign/three-free?co=DE", desktop, "This offer is not available on your platform."],
    ] as const;
    for (const [path, agent, message] of cases) {
      expect(decode(await (await get(path, agent)).text())).toContain(message);
    }
  });

  test("inside the app: open it in the browser", async () => {
    const response = await SELF.fetch(`${site}/campaign/first-month?co=GB`, {
      headers: {
        "user-agent": iphone,
        cookie: `appconfig=${encodeURIComponent(JSON.stringify({ country: "GB" }))}`,
      },
    });
    const html = await response.text();
    expect(h2(html)).toBe("Open this offer in your browser");
    expect(decode(html)).toContain("Oops! The offer can't be accessed from here");
  });

  test("no AMP form: /amp/campaign/… is the AMP 404", async () => {
    expect((await get("/amp/campaign/first-month")).status).toBe(404);
  });
});

describe("the code", () => {
  const redeem = "/campaign/first-month/redeem?co=GB";

  test("handed out after a verified registration, the same one again, and shown on the page", async () => {
    const who = await signedIn();
    const challenge = await challengeFor(who, redeem);
    const first = await post(who, redeem, { step: "code", ...(await registration({ challenge })) });
    expect(first.status).toBe(201);
    const { code, months } = (await first.json()) as { code: string; months: number };
    expect(code).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
    expect(months).toBe(1);

    // Idempotent: asking again, by either step, gives the same code.
    const again = await post(who, redeem, { step: "code", ...(await registration({ challenge })) });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { code: string }).code).toBe(code);
    const asked = await post(who, redeem, { step: "challenge" });
    expect(((await asked.json()) as { code: string }).code).toBe(code);

    const page = await who.fetch("/campaign/first-month?co=GB");
    const html = await page.text();
    expect(h2(html)).toBe("Your code is ready");
    expect(html).toContain(`value="${code}"`);

    // New users only: another campaign refuses this account, on the page and at the origin.
    const other = await who.fetch("/campaign/three-free?co=GB");
    expect(h2(await other.text())).toBe("Not available on this device");
    const refused = await post(who, "/campaign/holiday-2024/redeem?co=GB", { step: "challenge" });
    expect(refused.status).toBe(410);
  });

  test("five months on iOS, three on Android", async () => {
    for (const [agent, expected] of [
      [iphone, 5],
      ["Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile Safari/537.36", 3],
    ] as const) {
      const who = await signedIn();
      const headers = { "user-agent": agent };
      const answer = await SELF.fetch(`${site}/campaign/five-months/redeem?co=US`, {
        method: "POST",
        headers: {
          ...headers,
          cookie: [...who.jar].map(([name, value]) => `${name}=${value}`).join("; "),
          "content-type": "application/json",
          origin: site,
          "sec-fetch-site": "same-origin",
        },
        body: JSON.stringify({ step: "challenge" }),
      });
      const { challenge } = (await answer.json()) as { challenge: string };
      const coded = await SELF.fetch(`${site}/campaign/five-months/redeem?co=US`, {
        method: "POST",
        headers: {
          ...headers,
          cookie: [...who.jar].map(([name, value]) => `${name}=${value}`).join("; "),
          "content-type": "application/json",
          origin: site,
          "sec-fetch-site": "same-origin",
        },
        body: JSON.stringify({ step: "code", ...(await registration({ challenge })) }),
      });
      expect(coded.status).toBe(201);
      expect(((await coded.json()) as { months: number }).months).toBe(expected);
    }
  });

  test.each([
    ["no user verification (UP only)", { flags: 0x01 }, 403, "deviceAuthRequired"],
    ["no user presence", { flags: 0x04 }, 403, "deviceAuthRequired"],
    ["another site's origin", { origin: "https://evil.test" }, 400, undefined],
    ["another RP ID", { rpId: "evil.test" }, 400, undefined],
    ["an assertion, not a registration", { type: "webauthn.get" }, 400, undefined],
  ] as const)("refused: %s", async (_, answer, status, state) => {
    const who = await signedIn();
    const challenge = await challengeFor(who, redeem);
    const refused = await post(who, redeem, {
      step: "code",
      ...(await registration({ challenge, ...answer })),
    });
    expect(refused.status).toBe(status);
    expect(((await refused.json()) as { state?: string }).state).toBe(state);
    // No code was handed out, and the challenge is spent.
    const page = await who.fetch("/campaign/first-month?co=GB");
    expect(h2(await page.text())).toBe("Get your code");
    const replay = await post(who, redeem, { step: "code", ...(await registration({ challenge })) });
    expect(replay.status).toBe(400);
  });

  test("a challenge nobody issued, or another account's, is refused", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const made = await post(alice, redeem, {
      step: "code",
      ...(await registration({ challenge: "made-up" })),
    });
    expect(made.status).toBe(400);
    const aliceChallenge = await challengeFor(alice, redeem);
    const stolen = await post(bob, redeem, {
      step: "code",
      ...(await registration({ challenge: aliceChallenge })),
    });
    expect(stolen.status).toBe(400);
  });

  test("every check before the challenge: country, platform, sign-in, ended, malformed", async () => {
    const who = await signedIn();
    const cases = [
      ["/campaign/first-month/redeem?co=ZA", { step: "challenge" }, 403, "notInCountry"],
      ["/campaign/iphone-four/redeem?co=US", { step: "challenge" }, 403, "notOnPlatform"],
      ["/campaign/holiday-2024/redeem?co=GB", { step: "challenge" }, 410, "ended"],
      ["/campaign/no-such-offer/redeem?co=GB", { step: "challenge" }, 404, "noOffer"],
      ["/campaign/first-month/redeem?co=GB", { step: "steal" }, 400, undefined],
      ["/campaign/Bad_Name/redeem?co=GB", { step: "challenge" }, 400, undefined],
    ] as const;
    for (const [path, body, status, state] of cases) {
      const answer = await post(who, path, body);
      expect(answer.status, path).toBe(status);
      expect(((await answer.json()) as { state?: string }).state, path).toBe(state);
    }
    const anonymous = browser();
    const signedOut = await post(anonymous, redeem, { step: "challenge" });
    expect(signedOut.status).toBe(401);
  });

  test("a request another site made never reaches the code", async () => {
    const who = await signedIn();
    const challenge = await challengeFor(who, redeem);
    const body = { step: "code", ...(await registration({ challenge })) };
    const page = await post(who, redeem, body, {
      origin: "https://evil.test",
      "sec-fetch-site": "cross-site",
    });
    expect(page.status).toBe(401);
    // The account service refuses it too when called directly.
    const direct = await post(
      who,
      "/services/account/offers/first-month/code",
      { country: "GB", ...body },
      {
        origin: "https://evil.test",
        "sec-fetch-site": "cross-site",
      },
    );
    expect(direct.status).toBe(403);
    // The challenge was not spent: the page's own request still gets the code.
    const own = await post(who, redeem, body);
    expect(own.status).toBe(201);
  });
});
