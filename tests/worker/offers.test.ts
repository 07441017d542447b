import "#tests/all-languages.ts";
import { env, SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { offerLimits } from "#rules/offers.ts";
import { localizedPath } from "#rules/path.ts";
import {
  assertionAnswer,
  type Ceremony,
  registrationAnswer,
  type SoftwareKey,
  softwareKey,
} from "#tests/webauthn-registration.ts";
import { type Browser, browser, signIn, site } from "./browser-jar";
import { decode, getAs, metaContent } from "./site";

// Offers inside workerd: the campaign data call, the page in each state and several languages,
// malformed names, the page's caching, and the code: handed out only after every check, with a
// WebAuthn answer @simplewebauthn/server verifies (challenge, origin, RP ID, key, user
// verification), once per account, credential and campaign, within the farming limits
// (`offerLimits`: account age, codes per client address), never for a request another site made.

const desktop = "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36";
const iphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
/** SITE_ORIGIN in vitest.worker.config.ts: the WebAuthn origin, and its host name the RP ID. */
const siteOrigin = "https://tunewave.test";
const rpId = "tunewave.test";
let people = 0;

const get = getAs({ "user-agent": desktop });

const h1 = (html: string) => decode(/<h1 id="offer-title">([^<]*)<\/h1>/.exec(html)?.[1] ?? "");
const h2 = (html: string) => decode(/<h2 id="offer-state-title">([^<]*)<\/h2>/.exec(html)?.[1] ?? "");

// --- WebAuthn answers for this site ---------------------------------------------------------------

/** A registration answer for this site, with the parts a test changes. */
function registration(answer: Partial<Ceremony> & { challenge: string; key?: SoftwareKey }) {
  return registrationAnswer({ origin: siteOrigin, rpId, ...answer });
}

/** The code step with a registration made by `key` (a fresh software key unless given). */
async function codeStep(answer: Partial<Ceremony> & { challenge: string; key?: SoftwareKey | null }) {
  const key = answer.key === null ? undefined : (answer.key ?? (await softwareKey()));
  return { step: "code", credential: await registration({ ...answer, key }) };
}

// --- The page's redemption route, as the page's script calls it --------------------------------

/**
 * A POST as the page's script makes it, from `who`'s cookies and client address (or the address
 * `headers` names: a scripted client's accounts share one).
 */
async function post(who: Browser, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await SELF.fetch(`${site}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "user-agent": desktop,
      "cf-connecting-ip": who.ip,
      cookie: [...who.jar].map(([name, value]) => `${name}=${value}`).join("; "),
      "content-type": "application/json",
      origin: siteOrigin,
      "sec-fetch-site": "same-origin",
      ...headers,
    },
    body: JSON.stringify(body),
  });
  // Read whole before the test sees it (browser-jar.ts says why).
  const text = await response.text();
  return new Response(text, { status: response.status, headers: response.headers });
}

/** Makes the account older than the farming limit's minimum age, as if made yesterday. */
async function ageAccount(email: string): Promise<void> {
  await env.DB.prepare("UPDATE users SET created_at = ? WHERE email = ?")
    .bind(Date.now() - offerLimits.minAccountAgeMs - 60_000, email)
    .run();
}

/** A browser signed in to a new account, made a day ago unless `made` is "now". */
async function signedIn(made: "yesterday" | "now" = "yesterday"): Promise<Browser> {
  people += 1;
  const who = browser();
  const email = `offers.${people}.${Date.now()}@example.com`;
  await signIn(who, email);
  if (made === "yesterday") await ageAccount(email);
  return who;
}

type Options = { challenge: string; allowCredentials?: { id: string }[]; user?: { id: string } };

/** The challenge step's WebAuthn options: a registration's (`create`) or an assertion's (`get`). */
async function optionsFor(who: Browser, path: string): Promise<{ create?: Options; get?: Options }> {
  const answer = await post(who, path, { step: "challenge" });
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as { state: string; create?: Options; get?: Options };
  expect(body.state).toBe("available");
  return body;
}

async function challengeFor(who: Browser, path: string): Promise<string> {
  const { create, get } = await optionsFor(who, path);
  const challenge = (create ?? get)?.challenge;
  if (!challenge) throw new Error("no challenge");
  return challenge;
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
    ["/campaign/first-month?co=GB", desktop, 200, "signInRequired", "promised"],
    ["/campaign/first-month?co=ZA", desktop, 200, "notInCountry", "not promised"],
    ["/campaign/three-free?co=DE", desktop, 200, "notOnPlatform", "not promised"],
    ["/campaign/iphone-four?co=US", desktop, 200, "notOnPlatform", "not promised"],
    ["/campaign/five-months?co=US", desktop, 200, "notOnPlatform", "not promised"],
    ["/campaign/iphone-four?co=US", iphone, 200, "signInRequired", "promised"],
    ["/campaign/holiday-2024?co=GB", desktop, 410, "ended", "not promised"],
  ] as const;
  for (const lang of ["en", "de", "ja"] as const) {
    const { t } = serverStrings(lang);
    test.each(states)(
      `${lang}: %s (%s) answers %i in state %s, a code %s`,
      async (path, agent, status, state, code) => {
        const [pathname = "", query] = path.split("?");
        const response = await get(`${localizedPath(lang, pathname)}?${query}`, {
          headers: { "user-agent": agent },
        });
        expect(response.status).toBe(status);
        // No cache but the edge's own document cache keeps it (below).
        expect(response.headers.get("cache-control")).toBe("private, no-cache");
        const html = await response.text();
        expect(h2(html)).toBe(t(`offers:states.${state}.title`));
        expect(h1(html)).toContain("Apple Music");
        // The lead promises a code only where the state still leads to one, and so does the
        // page's description (its search result, its share card); elsewhere it says the state.
        const lead = /<p class="offer__lead">([^<]*)<\/p>/.exec(html)?.[1];
        expect(lead !== undefined).toBe(code === "promised");
        const stateMessage = /<h2 id="offer-state-title">[^<]*<\/h2><p>([^<]*)<\/p>/.exec(html)?.[1];
        expect(stateMessage).toBeDefined();
        expect(metaContent(html, "name", "description")).toBe(
          decode((code === "promised" ? lead : stateMessage) ?? ""),
        );
        // Spec 000 §2: the campaign's name is the statistics' experiment name.
        // (Remix streams the root data as an escaped turbo-stream: "expName","{name}".)
        expect(html).toContain(`\\"expName\\",\\"${pathname.split("/")[2]}\\"`);
      },
    );

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
      expect(decode(await (await get(path, { headers: { "user-agent": agent } })).text())).toContain(message);
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

  test("no shared cache may keep it: it varies by the IP's country, which no Vary names (finding 13)", async () => {
    const visit = (country: string) =>
      SELF.fetch(`${site}/campaign/first-month`, { headers: { "user-agent": desktop }, cf: { country } });
    const fromGb = await visit("GB");
    const fromZa = await visit("ZA");
    // The same URL, headers and cookies: a shared cache keyed by them would answer ZA with GB's page.
    expect(h2(await fromGb.text())).toBe("Sign in to get your code");
    expect(h2(await fromZa.text())).toBe("Not available here");
    for (const response of [fromGb, fromZa]) {
      expect(response.headers.get("cache-control")).toBe("private, no-cache");
      // The document cache's own lifetime never leaves the edge.
      expect(response.headers.get("document-cache-control")).toBeNull();
    }
    // The edge's document cache, whose key holds the country, still keeps each.
    const again = await visit("ZA");
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(h2(await again.text())).toBe("Not available here");
  });

  test("no AMP form: /amp/campaign/… is the AMP 404", async () => {
    expect((await get("/amp/campaign/first-month")).status).toBe(404);
  });
});

describe("the code", () => {
  const redeem = "/campaign/first-month/redeem?co=GB";

  test("handed out after a verified registration, the same one again, and shown on the page", async () => {
    const who = await signedIn();
    const { create } = await optionsFor(who, redeem);
    // @simplewebauthn/server's options: this site's RP ID, a platform authenticator verifying the person.
    expect(create).toMatchObject({
      rp: { name: "Tunewave", id: rpId },
      authenticatorSelection: { authenticatorAttachment: "platform", userVerification: "required" },
      attestation: "direct",
    });
    const challenge = create?.challenge ?? "";
    const first = await post(who, redeem, await codeStep({ challenge }));
    expect(first.status).toBe(201);
    const { code, months } = (await first.json()) as { code: string; months: number };
    expect(code).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
    expect(months).toBe(1);

    // Idempotent: asking again, by either step, gives the same code.
    const again = await post(who, redeem, await codeStep({ challenge }));
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
      const send = (body: unknown) =>
        SELF.fetch(`${site}/campaign/five-months/redeem?co=US`, {
          method: "POST",
          headers: {
            "user-agent": agent,
            "cf-connecting-ip": who.ip,
            cookie: [...who.jar].map(([name, value]) => `${name}=${value}`).join("; "),
            "content-type": "application/json",
            origin: siteOrigin,
            "sec-fetch-site": "same-origin",
          },
          body: JSON.stringify(body),
        });
      const { create } = (await (await send({ step: "challenge" })).json()) as { create: Options };
      const coded = await send(await codeStep({ challenge: create.challenge }));
      expect(coded.status).toBe(201);
      expect(((await coded.json()) as { months: number }).months).toBe(expected);
    }
  });

  test.each([
    ["no user verification (UP only)", { flags: 0x41 }, 403, "deviceAuthRequired"],
    ["no user presence", { flags: 0x44 }, 400, undefined],
    ["another site's origin", { origin: "https://evil.test" }, 400, undefined],
    ["the request's own origin, not SITE_ORIGIN", { origin: "http://tunewave.test" }, 400, undefined],
    ["another RP ID", { rpId: "evil.test" }, 400, undefined],
    ["an assertion's client data, not a registration's", { type: "webauthn.get" }, 400, undefined],
    ["no key at all: authenticator data that only claims UV", { key: null }, 400, undefined],
  ] as const)("refused: %s", async (_, answer, status, state) => {
    const who = await signedIn();
    const challenge = await challengeFor(who, redeem);
    const refused = await post(who, redeem, await codeStep({ challenge, ...answer }));
    expect(refused.status).toBe(status);
    expect(((await refused.json()) as { state?: string }).state).toBe(state);
    // No code was handed out, and the challenge is spent.
    const page = await who.fetch("/campaign/first-month?co=GB");
    expect(h2(await page.text())).toBe("Get your code");
    const replay = await post(who, redeem, await codeStep({ challenge }));
    expect(replay.status).toBe(400);
  });

  test("a challenge nobody issued, or another account's, is refused", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const made = await post(alice, redeem, await codeStep({ challenge: "bWFkZS11cA" }));
    expect(made.status).toBe(400);
    const aliceChallenge = await challengeFor(alice, redeem);
    const stolen = await post(bob, redeem, await codeStep({ challenge: aliceChallenge }));
    expect(stolen.status).toBe(400);
  });

  test("every check before the challenge: country, platform, sign-in, ended, account age, malformed", async () => {
    const who = await signedIn();
    const cases = [
      ["/campaign/first-month/redeem?co=ZA", { step: "challenge" }, 403, "notInCountry"],
      ["/campaign/iphone-four/redeem?co=US", { step: "challenge" }, 403, "notOnPlatform"],
      ["/campaign/holiday-2024/redeem?co=GB", { step: "challenge" }, 410, "ended"],
      ["/campaign/no-such-offer/redeem?co=GB", { step: "challenge" }, 404, "noOffer"],
      ["/campaign/first-month/redeem?co=GB", { step: "steal" }, 400, undefined],
      ["/campaign/first-month/redeem?co=GB", { step: "code", credential: { id: "x" } }, 400, undefined],
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

    // An account made today: the page says so, and the origin issues no challenge.
    const newcomer = await signedIn("now");
    expect(h2(await (await newcomer.fetch("/campaign/first-month?co=GB")).text())).toBe("Try again tomorrow");
    const tooNew = await post(newcomer, redeem, { step: "challenge" });
    expect(tooNew.status).toBe(403);
    expect(((await tooNew.json()) as { state?: string }).state).toBe("limitReached");
  });

  test("a request another site made never reaches the code", async () => {
    const who = await signedIn();
    const challenge = await challengeFor(who, redeem);
    const body = await codeStep({ challenge });
    const page = await post(who, redeem, body, {
      origin: "https://evil.test",
      "sec-fetch-site": "cross-site",
    });
    expect(page.status).toBe(403);
    // The challenge was not spent: the page's own request still gets the code.
    const own = await post(who, redeem, body);
    expect(own.status).toBe(201);
  });

  test("an account refused by the client's limit proves itself next time with the credential it registered", async () => {
    // Three codes from one address, and a fourth account there with its challenge already issued.
    const address = "203.0.113.40";
    const fromAddress = { "cf-connecting-ip": address };
    const holders: Browser[] = [];
    for (let index = 0; index < offerLimits.codesPerClient + 1; index += 1) holders.push(await signedIn());
    const challenges: string[] = [];
    for (const holder of holders) {
      const asked = await post(holder, redeem, { step: "challenge" }, fromAddress);
      challenges.push(((await asked.json()) as { create: Options }).create.challenge);
    }
    const last = holders.at(-1) as Browser;
    const key = await softwareKey();
    for (const [index, holder] of holders.entries()) {
      const challenge = challenges[index] ?? "";
      const answer = await post(
        holder,
        redeem,
        await codeStep({ challenge, key: holder === last ? key : undefined }),
        fromAddress,
      );
      expect(answer.status, `account ${index + 1}`).toBe(holder === last ? 403 : 201);
    }
    // From another address the next day's try asks for an assertion with the credential it registered.
    const { get, create } = await optionsFor(last, redeem);
    expect(create).toBeUndefined();
    expect(get?.allowCredentials?.map(({ id }) => id)).toEqual([
      (await registration({ challenge: "x", key })).id,
    ]);
    const challenge = get?.challenge ?? "";
    const unverified = await post(last, redeem, {
      step: "code",
      credential: await assertionAnswer({ challenge, origin: siteOrigin, rpId, key, flags: 0x01 }),
    });
    expect(unverified.status).toBe(403);
    const other = await softwareKey();
    const forged = await post(last, redeem, {
      step: "code",
      credential: await assertionAnswer({
        challenge: await challengeFor(last, redeem),
        origin: siteOrigin,
        rpId,
        key: { ...other, id: key.id },
      }),
    });
    expect(forged.status).toBe(400);
    const signed = await post(last, redeem, {
      step: "code",
      credential: await assertionAnswer({
        challenge: await challengeFor(last, redeem),
        origin: siteOrigin,
        rpId,
        key,
      }),
    });
    expect(signed.status).toBe(201);
  });
});

describe("a scripted client with no authenticator (decision 030, finding 5)", () => {
  // A plain HTTP client: it signs up with throwaway addresses and answers the device check by hand,
  // claiming user verification. It sends the answer in the old shape and the new, so the same
  // script ran against the site before the change, which handed it a code for every account.
  const redeem = "/campaign/first-month/redeem?co=GB";
  const address = "203.0.113.66";

  async function scripted(who: Browser, key: SoftwareKey | undefined) {
    const asked = await post(who, redeem, { step: "challenge" }, { "cf-connecting-ip": address });
    const body = (await asked.json()) as { challenge?: string; create?: Options; state?: string };
    const challenge = body.create?.challenge ?? body.challenge;
    if (asked.status !== 200 || !challenge) return asked.status;
    const credential = await registration({ challenge, key });
    const answered = await post(
      who,
      redeem,
      {
        step: "code",
        credential,
        clientDataJSON: credential.response.clientDataJSON,
        attestationObject: credential.response.attestationObject,
      },
      { "cf-connecting-ip": address },
    );
    return answered.status;
  }

  test("gets no code for an account made a minute ago, none for an answer with no key, and a few per address a day", async () => {
    // An account made just now: no challenge, so no code.
    expect(await scripted(await signedIn("now"), await softwareKey())).toBe(403);
    // Authenticator data that merely claims UV, with no key: @simplewebauthn/server refuses it.
    expect(await scripted(await signedIn(), undefined)).toBe(400);
    // A software key with a made-up `none` attestation is a valid registration (decision 022 says why
    // that cannot be told apart): it gets codes, but only `codesPerClient` from one address a day.
    const statuses: number[] = [];
    for (let index = 0; index < offerLimits.codesPerClient + 2; index += 1) {
      statuses.push(await scripted(await signedIn(), await softwareKey()));
    }
    expect(statuses).toEqual([
      ...Array<number>(offerLimits.codesPerClient).fill(201),
      ...Array<number>(2).fill(403),
    ]);
  });

  test("one software credential is one code: another account cannot register it again", async () => {
    const key = await softwareKey();
    const first = browser();
    const second = browser();
    for (const who of [first, second]) {
      people += 1;
      const email = `scripted.${people}.${Date.now()}@example.com`;
      await signIn(who, email);
      await ageAccount(email);
    }
    const answers: number[] = [];
    for (const who of [first, second]) {
      const challenge = await challengeFor(who, redeem);
      answers.push((await post(who, redeem, await codeStep({ challenge, key }))).status);
    }
    expect(answers).toEqual([201, 403]);
  });
});
