import type { Campaign, OfferPlatform } from "../edge/offers";

// The offers' D1 records (migration 0007): campaigns, the codes handed out, the WebAuthn challenges.

type CampaignRow = {
  name: string;
  service: string;
  months: number;
  countries: string;
  platforms: string;
  smartphone_only: number;
  starts_at: number;
  ends_at: number;
};

/** A campaign as `/campaign/data/{name}.json` answers it; undefined for a name we do not run. */
export async function findCampaign(db: D1Database, name: string): Promise<Campaign | undefined> {
  const row = await db.prepare("SELECT * FROM campaigns WHERE name = ?").bind(name).first<CampaignRow>();
  if (!row) return undefined;
  return {
    name: row.name,
    service: row.service,
    months: row.months as Campaign["months"],
    countries: row.countries.split(","),
    platforms: row.platforms.split(",") as OfferPlatform[],
    smartphoneOnly: row.smartphone_only === 1,
    startsAt: new Date(row.starts_at).toISOString(),
    endsAt: new Date(row.ends_at).toISOString(),
  };
}

export type AccountOffers = { code: { code: string; months: number } | undefined; redeemedOther: boolean };

/** The account's code for this campaign, and whether it was handed a code for another one. */
export async function accountOffers(
  db: D1Database,
  userId: string,
  campaign: string,
): Promise<AccountOffers> {
  const { results } = await db
    .prepare("SELECT campaign, code, months FROM offer_codes WHERE user_id = ?")
    .bind(userId)
    .all<{ campaign: string; code: string; months: number }>();
  const own = results.find((row) => row.campaign === campaign);
  return {
    code: own ? { code: own.code, months: own.months } : undefined,
    redeemedOther: results.some((row) => row.campaign !== campaign),
  };
}

/** Crockford's base32 without I, L, O, U: a code a person can read out and type. */
const codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `XXXX-XXXX-XXXX-XXXX`: 80 random bits. */
export function newOfferCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const chars = [...bytes].map((byte) => codeAlphabet[byte % 32]).join("");
  return chars.match(/.{4}/g)?.join("-") ?? chars;
}

/**
 * Hands out a code in one statement: only to an account that holds no code of another campaign
 * (new users only), and at most one per account and campaign, so two tabs asking at once get the
 * same code. Undefined when another campaign's code was handed out first.
 */
export async function claimOfferCode(
  db: D1Database,
  claim: { userId: string; campaign: string; months: number; platform: string; country: string; now: number },
): Promise<{ code: string; months: number } | undefined> {
  await db
    .prepare(
      `INSERT INTO offer_codes (user_id, campaign, code, months, platform, country, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
       WHERE NOT EXISTS (SELECT 1 FROM offer_codes WHERE user_id = ?1 AND campaign <> ?2)
       ON CONFLICT (user_id, campaign) DO NOTHING`,
    )
    .bind(
      claim.userId,
      claim.campaign,
      newOfferCode(),
      claim.months,
      claim.platform,
      claim.country,
      claim.now,
    )
    .run();
  const row = await db
    .prepare("SELECT code, months FROM offer_codes WHERE user_id = ? AND campaign = ?")
    .bind(claim.userId, claim.campaign)
    .first<{ code: string; months: number }>();
  return row ?? undefined;
}

/** Stores a new challenge for this account, campaign and origin; drops the account's expired ones. */
export async function storeChallenge(
  db: D1Database,
  challenge: {
    value: string;
    userId: string;
    campaign: string;
    origin: string;
    expiresAt: number;
    now: number;
  },
): Promise<void> {
  await db.batch([
    db
      .prepare("DELETE FROM offer_challenges WHERE user_id = ? AND expires_at <= ?")
      .bind(challenge.userId, challenge.now),
    db
      .prepare(
        "INSERT INTO offer_challenges (challenge, user_id, campaign, origin, expires_at) VALUES (?, ?, ?, ?, ?)",
      )
      .bind(challenge.value, challenge.userId, challenge.campaign, challenge.origin, challenge.expiresAt),
  ]);
}

/**
 * Takes the challenge the browser's answer names, once: it is deleted as it is read, so a replayed
 * answer finds nothing. Only an unexpired challenge of this account and campaign counts.
 */
export async function takeChallenge(
  db: D1Database,
  lookup: { value: string; userId: string; campaign: string; now: number },
): Promise<{ origin: string } | undefined> {
  const row = await db
    .prepare(
      `DELETE FROM offer_challenges WHERE challenge = ? AND user_id = ? AND campaign = ?
       RETURNING origin, expires_at`,
    )
    .bind(lookup.value, lookup.userId, lookup.campaign)
    .first<{ origin: string; expires_at: number }>();
  if (!row || row.expires_at <= lookup.now) return undefined;
  return { origin: row.origin };
}
