import * as v from "valibot";
import type { OriginApp, OriginContext } from "#origin/env.ts";
import {
  clientAddressOf,
  countrySchema,
  errorResponse,
  invalidParam,
  jsonBody,
  noStoreJson,
  notFound,
  parseParams,
} from "#origin/http.ts";
import {
  type AccountOffers,
  accountOffers,
  claimOfferCode,
  clientCodesSince,
  clientHashOf,
  findCampaign,
  storeChallenge,
  storeCredential,
  takeChallenge,
  unredeemedCredentials,
  updateCounter,
} from "#origin/offers.ts";
import { signedInAccount } from "#origin/signed-in.ts";
import {
  authenticationOptions,
  challengeOf,
  checkCredential,
  credentialResponseSchema,
  registrationOptions,
  relyingPartyOf,
} from "#origin/webauthn.ts";
import { campaignNameSchema } from "#rules/campaign-name.ts";
import { readCookies } from "#rules/cookies.ts";
import { siteOriginOf } from "#rules/env.ts";
import {
  type OfferState,
  offerCeremonyTimeoutMs,
  offerChallengeLifetimeMs,
  offerDeviceOf,
  offerLimits,
  offerMessages,
  offerMonthsOn,
  offerRefusalStatus,
  offerState,
} from "#rules/offers.ts";

// Offers in the embedded origin (decision 022): the campaign data call of spec 001 §7, and in the
// account service the account's offer state, the WebAuthn challenge and the code. A code is handed
// out only when the one rule (rules/offers.ts) says `available` on the request's own inputs, the
// browser's authenticator verified the person (@simplewebauthn/server, origin/webauthn.ts), and
// the farming limits hold (`offerLimits`, decision 022). Cross-site requests never get here: the
// worker's entry refuses them for every write.

/** How long a campaign answer may be kept: an operator's change shows within five minutes. */
const campaignCacheControl = "public, max-age=300";

const campaignFileSchema = v.pipe(
  v.string(),
  v.regex(/\.json$/, "Malformed offer name"),
  v.transform((file) => file.slice(0, -".json".length)),
  campaignNameSchema,
);

/** The site passes the store-front country it resolved for the visitor (rules/countries.ts). */
const countryBodySchema = v.object({ country: countrySchema });

const codeBodySchema = v.object({
  country: countrySchema,
  /** The browser's `PublicKeyCredential.toJSON()`: a registration, or an assertion. */
  credential: credentialResponseSchema,
});

function refusal(state: Exclude<OfferState, "available" | "redeemed">): Response {
  return noStoreJson({ error: "refused", state, message: offerMessages[state] }, offerRefusalStatus(state));
}

/** The rule's account input from the account service's own record. */
function accountInput(offers: AccountOffers) {
  return {
    signedIn: true as const,
    code: offers.code?.code,
    redeemedOther: offers.redeemedOther,
    createdAt: offers.createdAt,
  };
}

/** The rule's inputs that the request itself carries: the clock, the device, the app's webview. */
function requestInputs(c: OriginContext) {
  return {
    now: Date.now(),
    device: offerDeviceOf(c.req.header("user-agent")),
    inApp: readCookies(c.req.header("cookie")).appConfig !== undefined,
  };
}

/** Registers the campaign data call on the origin's root (it is not under /services). */
export function registerCampaignData(root: OriginApp) {
  /** Spec 001 §7 "/campaign/data/{name}.json". */
  root.get("/campaign/data/:file", async (c) => {
    const parsed = v.safeParse(campaignFileSchema, c.req.param("file"));
    if (!parsed.success) return errorResponse(invalidParam("Malformed offer name"));
    const campaign = await findCampaign(c.var.db, parsed.output);
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
    const offers = await accountOffers(c.var.db, signedIn.userId, name);
    const answer = noStoreJson(
      {
        code: offers.code?.code ?? null,
        months: offers.code?.months ?? null,
        redeemedOther: offers.redeemedOther,
        createdAt: offers.createdAt,
      },
      200,
    );
    // One account's answer: the services proxy must never remember it by URL for another.
    answer.headers.set("Cache-Control", "private, no-store");
    return answer;
  });

  /**
   * A WebAuthn challenge for this account and campaign, only when every other check passes (the
   * rule, and the client's limit as it stands): the browser asks the person to verify only for a
   * code it would then be given. A registration's options, or an assertion's when the account
   * registered a credential before that has had no code.
   */
  origin.post("/account/offers/:name/challenge", async (c) => {
    const name = parseParams(campaignNameSchema, c.req.param("name"));
    const { country } = parseParams(countryBodySchema, await jsonBody(c));
    const signedIn = await signedInAccount(c);
    if ("refused" in signedIn) return signedIn.refused;
    const campaign = await findCampaign(c.var.db, name);
    const offers = await accountOffers(c.var.db, signedIn.userId, name);
    const inputs = requestInputs(c);
    const state = offerState({
      ...inputs,
      campaign,
      country,
      account: accountInput(offers),
      deviceAuth: "unknown",
    });
    if (state === "redeemed") return noStoreJson({ state, ...offers.code }, 200);
    if (state !== "available") return refusal(state);
    const clientHash = await clientHashOf(clientAddressOf(c));
    const since = inputs.now - offerLimits.clientWindowMs;
    if ((await clientCodesSince(c.var.db, clientHash, since)) >= offerLimits.codesPerClient)
      return refusal("limitReached");

    const rp = relyingPartyOf(siteOriginOf(c.env));
    const known = await unredeemedCredentials(c.var.db, signedIn.userId);
    const timeoutMs = offerCeremonyTimeoutMs;
    const userName = signedIn.state.email ?? "Tunewave";
    const ceremony =
      known.length > 0
        ? { get: await authenticationOptions(rp, { timeoutMs, allow: known.map(({ id }) => id) }) }
        : { create: await registrationOptions(rp, { userName, timeoutMs }) };
    const options = ceremony.get ?? ceremony.create;
    await storeChallenge(c.var.db, {
      value: options.challenge,
      userId: signedIn.userId,
      campaign: name,
      origin: rp.origin,
      expiresAt: inputs.now + offerChallengeLifetimeMs,
      now: inputs.now,
    });
    return noStoreJson({ state, ...ceremony, now: inputs.now }, 200);
  });

  /**
   * The code: the same one again for an account that has it; otherwise only after the rule says
   * `available`, the credential checks out (our challenge, once; the site's origin and RP ID; the
   * attestation or the signature; user verification) and the farming limits hold.
   */
  origin.post("/account/offers/:name/code", async (c) => {
    const name = parseParams(campaignNameSchema, c.req.param("name"));
    const body = parseParams(codeBodySchema, await jsonBody(c));
    const signedIn = await signedInAccount(c);
    if ("refused" in signedIn) return signedIn.refused;
    const campaign = await findCampaign(c.var.db, name);
    const offers = await accountOffers(c.var.db, signedIn.userId, name);
    const inputs = requestInputs(c);
    const account = accountInput(offers);
    const before = offerState({ ...inputs, campaign, country: body.country, account, deviceAuth: "unknown" });
    if (before === "redeemed") return noStoreJson(offers.code, 200);
    if (before !== "available" || !campaign) return refusal(before === "available" ? "noOffer" : before);

    const challenge = await challengeOf(body.credential);
    const issued = challenge
      ? await takeChallenge(c.var.db, {
          value: challenge,
          userId: signedIn.userId,
          campaign: name,
          now: inputs.now,
        })
      : undefined;
    if (!challenge || !issued) {
      return noStoreJson({ error: "invalidparam", message: "The verification has expired: try again" }, 400);
    }
    const rp = relyingPartyOf(siteOriginOf(c.env));
    const known = await unredeemedCredentials(c.var.db, signedIn.userId);
    const checked = await checkCredential(rp, body.credential, challenge, known);
    if (!checked.ok) {
      if (checked.reason === "notVerified") return refusal("deviceAuthRequired");
      return noStoreJson(
        { error: "invalidparam", message: `The verification did not check out: ${checked.detail}` },
        400,
      );
    }
    let credentialId: string;
    if (checked.registered) {
      const { registered } = checked;
      // A credential ID another account (or this one) registered already: one code per credential.
      if (!(await storeCredential(c.var.db, { ...registered, userId: signedIn.userId, now: inputs.now })))
        return refusal("limitReached");
      credentialId = registered.id;
    } else if (checked.asserted) {
      await updateCounter(c.var.db, checked.asserted.id, checked.asserted.counter);
      credentialId = checked.asserted.id;
    } else {
      return noStoreJson({ error: "invalidparam", message: "The verification did not check out" }, 400);
    }
    const after = offerState({ ...inputs, campaign, country: body.country, account, deviceAuth: "verified" });
    if (after !== "available") return refusal(after === "redeemed" ? "noOffer" : after);
    const claimed = await claimOfferCode(c.var.db, {
      userId: signedIn.userId,
      campaign: name,
      months: offerMonthsOn(campaign, inputs.device.platform),
      platform: inputs.device.platform,
      country: body.country,
      now: inputs.now,
      credentialId,
      clientHash: await clientHashOf(clientAddressOf(c)),
    });
    if (typeof claimed === "string") return refusal(claimed);
    return noStoreJson(claimed, 201);
  });
}
