import type { Context, Hono } from "hono";
import * as v from "valibot";
import { readCookies } from "../../edge/cookies";
import {
  campaignNameSchema,
  type OfferState,
  offerCeremonyTimeoutMs,
  offerChallengeLifetimeMs,
  offerDeviceOf,
  offerMessages,
  offerMonthsOn,
  offerRefusalStatus,
  offerState,
} from "../../edge/offers";
import { randomToken } from "../accounts";
import type { OriginApp, OriginEnv } from "../env";
import {
  countrySchema,
  errorResponse,
  invalidParam,
  jsonBody,
  noStoreJson,
  notFound,
  parseParams,
} from "../http";
import { accountOffers, claimOfferCode, findCampaign, storeChallenge, takeChallenge } from "../offers";
import { challengeOfClientData, checkRegistration } from "../webauthn";
import { signedInAccount } from "./account";

// Offers in the embedded origin (issue 22): the campaign data call of spec 001 §7, and in the
// account service the account's offer state, the WebAuthn challenge and the code. A code is handed
// out only when the one rule (edge/offers.ts) says `available` on the request's own inputs and the
// browser's authenticator verified the person.

type Ctx = Context<{ Bindings: OriginEnv }>;

/** How long a campaign answer may be kept: an operator's change shows within five minutes. */
const campaignCacheControl = "public, max-age=300";

const campaignFileSchema = v.pipe(
  v.string(),
  v.regex(/\.json$/, "Malformed offer name"),
  v.transform((file) => file.slice(0, -".json".length)),
  campaignNameSchema,
);

/** The site passes the store-front country it resolved for the visitor (edge/countries.ts). */
const countryBodySchema = v.object({ country: countrySchema });

const codeBodySchema = v.object({
  country: countrySchema,
  clientDataJSON: v.pipe(v.string(), v.maxLength(4096)),
  attestationObject: v.pipe(v.string(), v.maxLength(16384)),
});

function refusal(state: Exclude<OfferState, "available" | "redeemed">): Response {
  return noStoreJson({ error: "refused", state, message: offerMessages[state] }, offerRefusalStatus(state));
}

/** The rule's inputs that the request itself carries: the clock, the device, the app's webview. */
function requestInputs(c: Ctx) {
  return {
    now: Date.now(),
    device: offerDeviceOf(c.req.header("user-agent")),
    inApp: readCookies(c.req.header("cookie")).appConfig !== undefined,
  };
}

/** Registers the campaign data call on the origin's root (it is not under /services). */
export function registerCampaignData(root: Hono<{ Bindings: OriginEnv }>) {
  /** Spec 001 §7 "/campaign/data/{name}.json". */
  root.get("/campaign/data/:file", async (c) => {
    const parsed = v.safeParse(campaignFileSchema, c.req.param("file"));
    if (!parsed.success) return errorResponse(invalidParam("Malformed offer name"));
    const campaign = await findCampaign(c.env.DB, parsed.output);
    if (!campaign) {
      return errorResponse(notFound(offerMessages.noOffer));
    }
    return c.json(campaign, 200, { "Cache-Control": campaignCacheControl });
  });
}

export function registerOffers(origin: OriginApp) {
  /** The account's code for a campaign, if any, and whether it holds another campaign's (not new). */
  origin.get("/account/offers/:name", async (c) => {
    const name = parseParams(campaignNameSchema, c.req.param("name"));
    const signedIn = await signedInAccount(c);
    if ("refused" in signedIn) return signedIn.refused;
    const offers = await accountOffers(c.env.DB, signedIn.userId, name);
    const answer = noStoreJson(
      {
        code: offers.code?.code ?? null,
        months: offers.code?.months ?? null,
        redeemedOther: offers.redeemedOther,
      },
      200,
    );
    // One account's answer: the services proxy must never remember it by URL for another.
    answer.headers.set("Cache-Control", "private, no-store");
    return answer;
  });

  /**
   * A WebAuthn challenge for this account and campaign, only when every other check passes: the
   * browser asks the person to verify only for a code it would then be given.
   */
  origin.post("/account/offers/:name/challenge", async (c) => {
    const name = parseParams(campaignNameSchema, c.req.param("name"));
    const { country } = parseParams(countryBodySchema, await jsonBody(c));
    const signedIn = await signedInAccount(c);
    if ("refused" in signedIn) return signedIn.refused;
    const campaign = await findCampaign(c.env.DB, name);
    const offers = await accountOffers(c.env.DB, signedIn.userId, name);
    const inputs = requestInputs(c);
    const state = offerState({
      ...inputs,
      campaign,
      country,
      account: { signedIn: true, code: offers.code?.code, redeemedOther: offers.redeemedOther },
      deviceAuth: "unknown",
    });
    if (state === "redeemed") return noStoreJson({ state, ...offers.code }, 200);
    if (state !== "available") return refusal(state);
    const challenge = randomToken();
    const origin = new URL(c.req.url).origin;
    await storeChallenge(c.env.DB, {
      value: challenge,
      userId: signedIn.userId,
      campaign: name,
      origin,
      expiresAt: inputs.now + offerChallengeLifetimeMs,
      now: inputs.now,
    });
    return noStoreJson(
      {
        state,
        challenge,
        // The person's own handle at this site for the credential: not the account id.
        userHandle: randomToken().slice(0, 22),
        userName: signedIn.state.email ?? "Tunewave",
        timeoutMs: offerCeremonyTimeoutMs,
        now: inputs.now,
      },
      200,
    );
  });

  /**
   * The code: the same one again for an account that has it; otherwise only after the rule says
   * `available` and the registration answer checks out (our challenge, once; the site's origin;
   * user verification).
   */
  origin.post("/account/offers/:name/code", async (c) => {
    const name = parseParams(campaignNameSchema, c.req.param("name"));
    const body = parseParams(codeBodySchema, await jsonBody(c));
    const signedIn = await signedInAccount(c);
    if ("refused" in signedIn) return signedIn.refused;
    const campaign = await findCampaign(c.env.DB, name);
    const offers = await accountOffers(c.env.DB, signedIn.userId, name);
    const inputs = requestInputs(c);
    const account = { signedIn: true as const, code: offers.code?.code, redeemedOther: offers.redeemedOther };
    const before = offerState({ ...inputs, campaign, country: body.country, account, deviceAuth: "unknown" });
    if (before === "redeemed") return noStoreJson(offers.code, 200);
    if (before !== "available" || !campaign) return refusal(before === "available" ? "noOffer" : before);

    const challenge = challengeOfClientData(body.clientDataJSON);
    const issued = challenge
      ? await takeChallenge(c.env.DB, {
          value: challenge,
          userId: signedIn.userId,
          campaign: name,
          now: inputs.now,
        })
      : undefined;
    if (!challenge || !issued) {
      return noStoreJson({ error: "invalidparam", message: "The verification has expired: try again" }, 400);
    }
    const checked = await checkRegistration({ ...body, challenge, origin: issued.origin });
    if (!checked.ok) {
      if (checked.reason === "verification" || checked.reason === "presence")
        return refusal("deviceAuthRequired");
      return noStoreJson(
        { error: "invalidparam", message: `The verification did not check out (${checked.reason})` },
        400,
      );
    }
    const after = offerState({ ...inputs, campaign, country: body.country, account, deviceAuth: "verified" });
    if (after !== "available") return refusal(after === "redeemed" ? "noOffer" : after);
    const claimed = await claimOfferCode(c.env.DB, {
      userId: signedIn.userId,
      campaign: name,
      months: offerMonthsOn(campaign, inputs.device.platform),
      platform: inputs.device.platform,
      country: body.country,
      now: inputs.now,
    });
    if (!claimed) return refusal("notNewUser");
    return noStoreJson(claimed, 201);
  });
}
