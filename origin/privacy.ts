import type { Database } from "#origin/db/rows.ts";
import { roughPosition } from "#rules/library.ts";
import {
  type DataCategories,
  dataExportLifetimeMs,
  dataExportPreparingMs,
  expiredExportRecordMs,
} from "#rules/privacy.ts";
import { forgetSessionsOf, randomToken, sha256 } from "./accounts";
import { shownTagTime } from "./library";

// The privacy flows' D1 records (migration 0005): data downloads, everything held on one account
// (what a download holds and what deletion removes), and the account's deletion.

/** Everything the service holds on one account, as the archive writes it. Times are epoch ms. */
export type PersonData = {
  account: { id: string; email: string; createdAt: number };
  sessions: { method: string; createdAt: number; expiresAt: number }[];
  tags: {
    id: string;
    recognitionId: string;
    trackKey: number;
    title: string | null;
    artist: string | null;
    tagTime: number;
    country: string | null;
    lat: number | null;
    lng: number | null;
    hiddenAt: number | null;
    createdAt: number;
  }[];
  signInRequests: {
    createdAt: number;
    expiresAt: number;
    usedAt: number | null;
    locale: string;
    installId: string;
  }[];
  dataExports: { createdAt: number; expiresAt: number }[];
  offerCodes: {
    campaign: string;
    code: string;
    months: number;
    platform: string;
    country: string;
    createdAt: number;
  }[];
  verificationRequests: {
    id: string;
    artistName: string;
    email: string;
    role: string;
    link: string;
    message: string;
    status: string;
    lang: string;
    createdAt: number;
  }[];
  /** Never the token: what was granted, when, until when, and whether it was revoked. */
  streamingConnections: {
    clientId: string;
    scope: string;
    createdAt: number;
    expiresAt: number;
    revokedAt: number | null;
  }[];
  surveyAnswers: {
    satisfaction: number;
    found: string;
    comment: string;
    lang: string;
    createdAt: number;
  }[];
};

export type ExportClaim =
  | { outcome: "claimed"; id: string; token: string }
  | { outcome: "inprocess"; createdAt: number; expiresAt: number };

/**
 * Starts a data download for the account, unless one is still in process (preparing, or ready and
 * unexpired). The check and the insert are one statement, so two requests at once start one.
 */
export async function claimExport(db: Database, userId: string, now: number): Promise<ExportClaim> {
  const id = randomToken().slice(0, 22);
  const token = randomToken();
  const inserted = await db
    .prepare(
      `INSERT INTO data_exports (id, user_id, status, token_hash, created_at, expires_at)
       SELECT ?1, ?2, 'preparing', ?3, ?4, ?5
       WHERE NOT EXISTS (SELECT 1 FROM data_exports WHERE user_id = ?2 AND expires_at > ?4)`,
    )
    .bind(id, userId, await sha256(token), now, now + dataExportPreparingMs)
    .run();
  if (inserted.meta.changes === 1) return { outcome: "claimed", id, token };
  const pending = await db
    .prepare(
      `SELECT created_at, expires_at FROM data_exports WHERE user_id = ? AND expires_at > ?
       ORDER BY created_at DESC LIMIT 1`,
    )
    .bind(userId, now)
    .first<{ created_at: number; expires_at: number }>();
  // The one in process expired between the two statements: a retry will be claimed.
  if (!pending) return claimExport(db, userId, now);
  return { outcome: "inprocess", createdAt: pending.created_at, expiresAt: pending.expires_at };
}

/** Stores a claimed download's archive: ready, fetchable until `dataExportLifetimeMs` from now. */
export async function completeExport(
  db: Database,
  id: string,
  archive: Uint8Array,
  now: number,
): Promise<number> {
  const expiresAt = now + dataExportLifetimeMs;
  await db
    .prepare("UPDATE data_exports SET status = 'ready', archive = ?, expires_at = ? WHERE id = ?")
    .bind(archive, expiresAt, id)
    .run();
  return expiresAt;
}

/** Forgets a download that could not be finished (its mail failed): the person may ask again. */
export async function dropExport(db: Database, id: string): Promise<void> {
  await db.prepare("DELETE FROM data_exports WHERE id = ?").bind(id).run();
}

/**
 * Deletes every expired archive's bytes, and the records that have outlived
 * `expiredExportRecordMs`, of every account: run with each privacy call, so that no archive
 * outlives its lifetime by more than the time to the next call of anyone.
 */
export function purgeExports(db: Database, now: number): Promise<D1Result[]> {
  return db.batch([
    db
      .prepare("UPDATE data_exports SET archive = NULL WHERE expires_at <= ? AND archive IS NOT NULL")
      .bind(now),
    db.prepare("DELETE FROM data_exports WHERE expires_at <= ?").bind(now - expiredExportRecordMs),
  ]);
}

export type ExportLookup =
  | {
      outcome: "ready";
      archive: Uint8Array<ArrayBuffer> | undefined;
      size: number;
      createdAt: number;
      expiresAt: number;
    }
  | { outcome: "wrongaccount" | "expired" | "inprocess" | "unknown" };

/**
 * A download as the link names it, for the signed-in account: unknown unless the token is the
 * link's (a guessed id tells nothing), then another account's, expired, still preparing, or ready
 * (with its bytes unless `withArchive` is false: a HEAD request).
 */
export async function findExport(
  db: Database,
  link: { id: string; token: string },
  userId: string,
  now: number,
  withArchive: boolean,
): Promise<ExportLookup> {
  const row = await db
    .prepare(
      `SELECT user_id, status, token_hash, created_at, expires_at, length(archive) AS size
         ${withArchive ? ", archive" : ""}
       FROM data_exports WHERE id = ?`,
    )
    .bind(link.id)
    .first<{
      user_id: string;
      status: "preparing" | "ready";
      token_hash: string;
      created_at: number;
      expires_at: number;
      size: number | null;
      archive?: number[] | ArrayBuffer | null;
    }>();
  if (!row || row.token_hash !== (await sha256(link.token))) return { outcome: "unknown" };
  if (row.user_id !== userId) return { outcome: "wrongaccount" };
  if (now >= row.expires_at) return { outcome: row.status === "ready" ? "expired" : "unknown" };
  if (row.status === "preparing" || row.size === null) return { outcome: "inprocess" };
  return {
    outcome: "ready",
    // D1 hands a BLOB back as an array of byte values.
    archive: row.archive ? new Uint8Array(row.archive) : undefined,
    size: row.size,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** Everything held on the account, read in one batch (one consistent view). */
export async function personData(db: Database, userId: string): Promise<PersonData | undefined> {
  const user = await db
    .prepare("SELECT id, email, created_at FROM users WHERE id = ?")
    .bind(userId)
    .first<{ id: string; email: string; created_at: number }>();
  if (!user) return undefined;
  // Each statement names its columns as PersonData does, so its rows are the records as they are.
  const results = await db.batch([
    db
      .prepare(
        `SELECT method, created_at AS createdAt, expires_at AS expiresAt FROM sessions
         WHERE user_id = ? ORDER BY created_at DESC`,
      )
      .bind(userId),
    db
      .prepare(
        `SELECT t.id, t.recognition_id AS recognitionId, t.track_key AS trackKey, tr.title, a.name AS artist,
           t.tag_time AS tagTime, t.country, t.lat, t.lng, t.hidden_at AS hiddenAt, t.created_at AS createdAt
         FROM tags t LEFT JOIN tracks tr ON tr.key = t.track_key LEFT JOIN artists a ON a.id = tr.artist_id
         WHERE t.user_id = ? ORDER BY t.tag_time DESC, t.id DESC`,
      )
      .bind(userId),
    db
      .prepare(
        `SELECT created_at AS createdAt, expires_at AS expiresAt, used_at AS usedAt, locale, inid AS installId
         FROM email_logins WHERE email = ? ORDER BY created_at DESC`,
      )
      .bind(user.email),
    db
      .prepare(
        `SELECT created_at AS createdAt, expires_at AS expiresAt FROM data_exports
         WHERE user_id = ? AND status = 'ready' ORDER BY created_at DESC`,
      )
      .bind(userId),
    db
      .prepare(
        `SELECT campaign, code, months, platform, country, created_at AS createdAt FROM offer_codes
         WHERE user_id = ? ORDER BY created_at DESC`,
      )
      .bind(userId),
    db
      .prepare(
        `SELECT id, artist_name AS artistName, email, role, link, message, status, lang, created_at AS createdAt
         FROM verification_requests WHERE user_id = ? ORDER BY created_at DESC`,
      )
      .bind(userId),
    db
      .prepare(
        `SELECT client_id AS clientId, scope, created_at AS createdAt, expires_at AS expiresAt,
           revoked_at AS revokedAt
         FROM oauth_tokens WHERE user_id = ? ORDER BY created_at DESC`,
      )
      .bind(userId),
    db
      .prepare(
        `SELECT satisfaction, found, comment, lang, created_at AS createdAt FROM survey_answers
         WHERE user_id = ? ORDER BY created_at DESC`,
      )
      .bind(userId),
  ]);
  const records = <K extends keyof PersonData>(at: number) => (results[at]?.results ?? []) as PersonData[K];
  return {
    account: { id: user.id, email: user.email, createdAt: user.created_at },
    sessions: records<"sessions">(0),
    tags: records<"tags">(1).map((tag) => ({
      ...tag,
      tagTime: shownTagTime(tag.tagTime, tag.createdAt),
      ...roughPosition(tag.lat, tag.lng),
    })),
    signInRequests: records<"signInRequests">(2),
    dataExports: records<"dataExports">(3),
    offerCodes: records<"offerCodes">(4),
    verificationRequests: records<"verificationRequests">(5),
    streamingConnections: records<"streamingConnections">(6),
    surveyAnswers: records<"surveyAnswers">(7),
  };
}

/** How much of each kind of data is held on the account now (spec 001 §5 data categories). */
export async function dataCategoriesOf(
  db: Database,
  userId: string,
  now: number,
): Promise<DataCategories | undefined> {
  const row = await db
    .prepare(
      `SELECT u.email, u.created_at,
         (SELECT COUNT(*) FROM sessions s WHERE s.user_id = u.id AND s.expires_at > ?2) AS sessions,
         (SELECT COUNT(*) FROM tags t WHERE t.user_id = u.id AND t.hidden_at IS NULL) AS tags,
         (SELECT COUNT(*) FROM tags t WHERE t.user_id = u.id AND t.hidden_at IS NOT NULL) AS hidden_tags,
         (SELECT COUNT(*) FROM email_logins e WHERE e.email = u.email) AS sign_in_requests,
         (SELECT COUNT(*) FROM data_exports d WHERE d.user_id = u.id AND d.status = 'ready') AS data_exports,
         (SELECT COUNT(*) FROM offer_codes o WHERE o.user_id = u.id) AS offer_codes,
         (SELECT COUNT(*) FROM verification_requests r WHERE r.user_id = u.id) AS verification_requests,
         (SELECT COUNT(*) FROM oauth_tokens k WHERE k.user_id = u.id) AS streaming_connections,
         (SELECT COUNT(*) FROM survey_answers a WHERE a.user_id = u.id) AS survey_answers
       FROM users u WHERE u.id = ?1`,
    )
    .bind(userId, now)
    .first<{
      email: string;
      created_at: number;
      sessions: number;
      tags: number;
      hidden_tags: number;
      sign_in_requests: number;
      data_exports: number;
      offer_codes: number;
      verification_requests: number;
      streaming_connections: number;
      survey_answers: number;
    }>();
  if (!row) return undefined;
  return {
    email: row.email,
    createdAt: row.created_at,
    sessions: row.sessions,
    tags: row.tags,
    hiddenTags: row.hidden_tags,
    signInRequests: row.sign_in_requests,
    dataExports: row.data_exports,
    offerCodes: row.offer_codes,
    verificationRequests: row.verification_requests,
    streamingConnections: row.streaming_connections,
    surveyAnswers: row.survey_answers,
  };
}

/**
 * Deletes the account and everything held on it, in one transaction: each data category the
 * privacy pages name (rules/privacy.ts `privacyDataCategories`) and the rows that serve them. Its
 * tags, sessions (signed out everywhere), data downloads, offer codes and their challenges; the
 * verification requests it sent and those naming its address; its streaming connections (their
 * codes and tokens: a deleted token grants nothing, so the connection is revoked); its survey
 * answer; the sign-in links of its address and mail to it in the local outbox; then the account.
 * Every statement names its table, rather than leaning on ON DELETE CASCADE. The address can sign
 * in again: as a new, empty account.
 */
export async function deleteAccount(db: Database, account: { userId: string; email: string }): Promise<void> {
  const { userId, email } = account;
  await db.batch([
    db.prepare("DELETE FROM tags WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM sessions WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM data_exports WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM offer_codes WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM offer_challenges WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM verification_requests WHERE user_id = ? OR email = ?").bind(userId, email),
    db.prepare("DELETE FROM oauth_tokens WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM oauth_codes WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM survey_answers WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM email_logins WHERE email = ?").bind(email),
    db.prepare("DELETE FROM outbox WHERE to_address = ?").bind(email),
    db.prepare("DELETE FROM users WHERE id = ?").bind(userId),
  ]);
  // After the batch: a read that looked the session up while it ran cannot leave it remembered.
  forgetSessionsOf(userId);
}
