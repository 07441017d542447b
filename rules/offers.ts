import * as v from "valibot";
import { campaignNameSchema } from "./campaign-name";
import { findCountry } from "./countries";
import { offerMonths, offerPlatforms, offerStates } from "./offer-state";

/**
 * Offers (spec 001 §2 "Offer redemption screens", §4 "Offers", §8, §9): the campaign data of
 * `/campaign/data/{name}.json` and the answers' schemas; the one rule that decides what an offer
 * page shows is rules/offer-state.ts, re-exported here. Reasons: docs/decisions/022-offers.md.
 */

export * from "./offer-state";

const instant = v.pipe(v.string(), v.isoTimestamp("Not an ISO timestamp"));
const countryCode = v.pipe(
  v.string(),
  v.check((code) => /^[A-Z]{2}$/.test(code) && findCountry(code) !== undefined, "Unknown country"),
);

/** The answer of `/campaign/data/{name}.json`, checked at the edge before any rule reads it. */
export const campaignSchema = v.pipe(
  v.object({
    name: campaignNameSchema,
    /** The streaming service whose trial is offered. */
    service: v.pipe(v.string(), v.minLength(1), v.maxLength(60)),
    months: v.picklist(offerMonths),
    /** Spec 001 §4 "only on a matching store-front country". */
    countries: v.pipe(v.array(countryCode), v.minLength(1)),
    platforms: v.pipe(v.array(v.picklist(offerPlatforms)), v.minLength(1)),
    /** Spec 001 §4 "Some offers are for smartphones only". */
    smartphoneOnly: v.boolean(),
    startsAt: instant,
    endsAt: instant,
  }),
  v.check((campaign) => Date.parse(campaign.startsAt) < Date.parse(campaign.endsAt), "Ends before it starts"),
);

export type Campaign = v.InferOutput<typeof campaignSchema>;

/** The data call of spec 001 §7, as the site and a remote origin spell it. */
export function campaignDataPath(name: string): string {
  return `/campaign/data/${name}.json`;
}

/** The account service's answer about one account and one campaign. */
export const offerAccountAnswerSchema = v.object({
  code: v.nullable(v.pipe(v.string(), v.regex(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/))),
  months: v.nullable(v.number()),
  redeemedOther: v.boolean(),
  /** When the account was made (epoch ms): the farming limit's account age. */
  createdAt: v.optional(v.number()),
});

/** The account service's answer that hands out (or hands out again) a code. */
export const offerCodeAnswerSchema = v.object({
  code: v.pipe(v.string(), v.regex(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/)),
  months: v.number(),
});

/** A refusal from the account service: the state that refused, and the spec's message. */
export const offerRefusalSchema = v.object({
  error: v.string(),
  state: v.optional(v.picklist(offerStates)),
  message: v.string(),
});

/** How long the origin's WebAuthn challenge may be answered (the ceremony's own timeout is 60 s). */
export const offerChallengeLifetimeMs = 2 * 60 * 1000;
/** The timeout the browser's WebAuthn ceremony is given. */
export const offerCeremonyTimeoutMs = 60 * 1000;
