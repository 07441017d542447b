import type { Database } from "#origin/db/rows.ts";
import { type Campaign, type OfferPlatform, offerLimits } from "#rules/offers.ts";
import { sha256 } from "./accounts";
import type { StoredCredential } from "./webauthn";

// The offers' D1 records (migrations 0007 and 0013): campaigns, the codes handed out, the WebAuthn
// challenges and credentials, and the codes per client address (the farming limits, `offerLimits`).

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
export async function findCampaign(db: Database, name: string): Promise<Campaign | undefined> {
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

export type AccountOffers = {
  code: { code: string; months: number } | undefined;
  redeemedOther: boolean;
  /** When the account was made (the farming limit's account age). */
  createdAt: number;
};

/** The account's code for this campaign, whether it was handed a code for another one, its age. */
export async function accountOffers(db: Database, userId: string, campaign: string): Promise<AccountOffers> {
  const [codes, user] = await db.batch<{
    campaign: string;
    code: string;
    months: number;
    created_at: number;
  }>([
    db.prepare("SELECT campaign, code, months FROM offer_codes WHERE user_id = ?").bind(userId),
    db.prepare("SELECT created_at FROM users WHERE id = ?").bind(userId),
  ]);
  const results = codes?.results ?? [];
  const own = results.find((row) => row.campaign === campaign);
  return {
    code: own ? { code: own.code, months: own.months } : undefined,
    redeemedOther: results.some((row) => row.campaign !== campaign),
    createdAt: user?.results[0]?.created_at ?? 0,
  };
}

/**
 * The bucket a client address counts in for the per-client limit: an IPv4 address itself (an
 * IPv4-mapped IPv6 one too), an IPv6 address's /64 (`offerLimits.ipv6PrefixBits`: one customer's
 * network, in which every device picks addresses at will).
 */
export function clientBucketOf(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.toLowerCase().split("::");
  const groupsOf = (part: string) =>
    part === "" ? [] : part.split(":").flatMap((group) => (group.includes(".") ? ["0", "0"] : [group]));
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const missing = Math.max(0, 8 - headGroups.length - tailGroups.length);
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailGroups];
  const prefix = groups
    .slice(0, offerLimits.ipv6PrefixBits / 16)
    .map((group) => (Number.parseInt(group, 16) || 0).toString(16));
  return `${prefix.join(":")}::/${offerLimits.ipv6PrefixBits}`;
}

/** What the per-client limit stores of an address: a hash of its bucket, never the address. */
export function clientHashOf(address: string): Promise<string> {
  return sha256(`offer-client:${clientBucketOf(address)}`);
}

/** How many codes this client got within the limit's window. */
export async function clientCodesSince(db: Database, clientHash: string, since: number): Promise<number> {
  const row = await db
    .prepare("SELECT COUNT(*) AS codes FROM offer_client_claims WHERE client_hash = ? AND claimed_at > ?")
    .bind(clientHash, since)
    .first<{ codes: number }>();
  return row?.codes ?? 0;
}

/** The account's credentials that have had no code: an assertion with one of them will do. */
export async function unredeemedCredentials(db: Database, userId: string): Promise<StoredCredential[]> {
  const { results } = await db
    .prepare(
      "SELECT credential_id, public_key, counter FROM offer_credentials WHERE user_id = ? AND redeemed_at IS NULL",
    )
    .bind(userId)
    .all<{ credential_id: string; public_key: string; counter: number }>();
  return results.map((row) => ({ id: row.credential_id, publicKey: row.public_key, counter: row.counter }));
}

/**
 * Records a newly registered credential for the account. False when its ID is registered already,
 * by this account or another (credential IDs are unique across accounts).
 */
export async function storeCredential(
  db: Database,
  credential: StoredCredential & { userId: string; fmt: string; aaguid: string; now: number },
): Promise<boolean> {
  const row = await db
    .prepare(
      `INSERT INTO offer_credentials (credential_id, user_id, public_key, counter, fmt, aaguid, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (credential_id) DO NOTHING RETURNING credential_id`,
    )
    .bind(
      credential.id,
      credential.userId,
      credential.publicKey,
      credential.counter,
      credential.fmt,
      credential.aaguid,
      credential.now,
    )
    .first();
  return row !== null;
}

/** An assertion's new signature counter (the library refused one that did not move forward). */
export async function updateCounter(db: Database, credentialId: string, counter: number): Promise<void> {
  await db
    .prepare("UPDATE offer_credentials SET counter = ? WHERE credential_id = ?")
    .bind(counter, credentialId)
    .run();
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
 * Hands out a code in one transaction, only when every limit holds at that moment: the account
 * holds no code of another campaign (new users only), the credential is this account's and has
 * had no code, and the client got fewer than `offerLimits.codesPerClient` codes in the window. At
 * most one per account and campaign, so two tabs asking at once get the same code. The
 * credential is marked and the client's claim counted in the same transaction.
 */
export async function claimOfferCode(
  db: Database,
  claim: {
    userId: string;
    campaign: string;
    months: number;
    platform: string;
    country: string;
    now: number;
    credentialId: string;
    clientHash: string;
  },
): Promise<{ code: string; months: number } | "notNewUser" | "limitReached"> {
  const code = newOfferCode();
  const since = claim.now - offerLimits.clientWindowMs;
  await db.batch([
    db.prepare("DELETE FROM offer_client_claims WHERE claimed_at <= ?").bind(since),
    db
      .prepare(
        `INSERT INTO offer_codes (user_id, campaign, code, months, platform, country, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
         WHERE NOT EXISTS (SELECT 1 FROM offer_codes WHERE user_id = ?1 AND campaign <> ?2)
           AND EXISTS (SELECT 1 FROM offer_credentials
                       WHERE credential_id = ?8 AND user_id = ?1 AND redeemed_at IS NULL)
           AND (SELECT COUNT(*) FROM offer_client_claims WHERE client_hash = ?9 AND claimed_at > ?10) < ?11
         ON CONFLICT (user_id, campaign) DO NOTHING`,
      )
      .bind(
        claim.userId,
        claim.campaign,
        code,
        claim.months,
        claim.platform,
        claim.country,
        claim.now,
        claim.credentialId,
        claim.clientHash,
        since,
        offerLimits.codesPerClient,
      ),
    db
      .prepare(
        `UPDATE offer_credentials SET redeemed_at = ?2
         WHERE credential_id = ?1 AND EXISTS (SELECT 1 FROM offer_codes WHERE code = ?3)`,
      )
      .bind(claim.credentialId, claim.now, code),
    db
      .prepare(
        `INSERT INTO offer_client_claims (client_hash, claimed_at)
         SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM offer_codes WHERE code = ?3)`,
      )
      .bind(claim.clientHash, claim.now, code),
  ]);
  const offers = await accountOffers(db, claim.userId, claim.campaign);
  if (offers.code) return offers.code;
  return offers.redeemedOther ? "notNewUser" : "limitReached";
}

/** Stores a new challenge for this account, campaign and origin; drops the account's expired ones. */
export async function storeChallenge(
  db: Database,
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
  db: Database,
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
