import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { documentStaleSeconds, documentTtlSeconds } from "#edge/document-cache.ts";
import { accountCall } from "#edge/session.ts";
import { campaignNameSchema } from "#rules/campaign-name.ts";
import { documentCacheControlHeader } from "#rules/document-cache-control.ts";
import { SiteError } from "#rules/errors.ts";
import {
  type Campaign,
  campaignDataPath,
  campaignSchema,
  type OfferAccount,
  offerAccountAnswerSchema,
} from "#rules/offers.ts";

// The offer page's data: the campaign (spec 001 §7 `/campaign/data/{name}.json`, through the
// services proxy and checked with its schema), and what the signed-in account has done with offers.

type Context = Pick<AppLoadContext, "services" | "account">;

/** The offer's name from the path, when it is one (spec 000 §2: the beacons' exp_name). */
export function campaignNameOf(param: string | undefined): string | undefined {
  const name = v.safeParse(campaignNameSchema, param);
  return name.success ? name.output : undefined;
}

/** The campaign, or undefined when no campaign has that name (the "no offer" state). */
export async function loadCampaign({ services }: Context, name: string): Promise<Campaign | undefined> {
  try {
    return await services.getJson(campaignDataPath(name), campaignSchema);
  } catch (error) {
    // The origin's 404 reaches loaders as a service error with its status.
    if (error instanceof SiteError && (error.type === "notfound" || error.status === 404)) return undefined;
    throw error;
  }
}

/** The account's code for this campaign and whether it holds another one; signed out without a session. */
export async function loadOfferAccount(
  context: Context,
  request: Request,
  name: string,
): Promise<{ account: OfferAccount; months: number | undefined }> {
  if (!context.account) return { account: { signedIn: false }, months: undefined };
  const response = await accountCall(context.services, request, ["offers", name]);
  if (response.status === 401 || response.status === 456) {
    await response.body?.cancel();
    return { account: { signedIn: false }, months: undefined };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new SiteError("serviceerror", `The account service answered ${response.status}`);
  }
  const parsed = v.safeParse(offerAccountAnswerSchema, await response.json().catch(() => undefined));
  if (!parsed.success) throw new SiteError("baddata", "The account service's offer answer did not parse");
  const { code, months, redeemedOther, createdAt } = parsed.output;
  return {
    account: { signedIn: true, code: code ?? undefined, redeemedOther, createdAt },
    months: months ?? undefined,
  };
}

/**
 * The caching of an anonymous visitor's offer page (decision 022, "The page and caches"). Its
 * state depends on the campaign, the clock, and the visitor's country, app and device: the country
 * may come from the IP address, which no `Vary` can name, so no cache but the edge's own document
 * cache (decision 055), whose key holds all three, may keep it. Browsers and other
 * caches get `private, no-cache`; the document cache gets its lifetime in `Document-Cache-Control`,
 * and no copy may answer after the campaign ends, fresh or stale (its state would then be
 * "ended"): lifetime and stale window end there.
 */
export function offerCacheHeaders(campaign: Pick<Campaign, "endsAt">, now: number): Record<string, string> {
  const left = Math.max(0, Math.floor((Date.parse(campaign.endsAt) - now) / 1000));
  const fresh = Math.min(documentTtlSeconds, left);
  return {
    "Cache-Control": "private, no-cache",
    [documentCacheControlHeader]: `max-age=${fresh}, stale-if-error=${Math.min(documentStaleSeconds, left - fresh)}`,
  };
}
