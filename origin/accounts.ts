import type { Database } from "#origin/db/rows.ts";
import {
  type EmailLoginRequest,
  emailLinkLifetimeMs,
  type LinkRefusal,
  type LoginState,
  linksPerAddress,
  linksPerAddressAndClient,
  linksPerClient,
  rateWindowMs,
  sessionLifetimeSeconds,
} from "#rules/account.ts";

// The account service's D1 records: users, e-mail sign-in links and sessions. Every secret (the
// link's custom token, the device and session cookies) is kept as its SHA-256 hash only.

/** 32 random bytes, base64url: a cookie value, a link key or a custom token. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

export async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export type LinkRequestOutcome =
  | { outcome: "created"; key: string; customToken: string }
  | { outcome: "closed" }
  | { outcome: "limited"; limit: "address" | "client" };

/**
 * Stores a sign-in link for `request.email`, unless the address's account is closed or a rate
 * limit is reached. The limit check and the insert are one statement, so concurrent requests
 * cannot pass the limit together.
 */
export async function createEmailLogin(
  db: Database,
  request: EmailLoginRequest,
  binding: { deviceHash: string; clientHash: string },
  now: number,
): Promise<LinkRequestOutcome> {
  if (await isClosedAccount(db, request.email)) return { outcome: "closed" };

  const key = randomToken();
  const customToken = randomToken();
  const since = now - rateWindowMs;
  const inserted = await db
    .prepare(
      `INSERT INTO email_logins
         (key, token_hash, device_hash, client_hash, email, locale, inid, created_at, expires_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
       WHERE (SELECT COUNT(*) FROM email_logins WHERE email = ?5 AND client_hash = ?4 AND created_at > ?10) < ?13
         AND (SELECT COUNT(*) FROM email_logins WHERE client_hash = ?4 AND created_at > ?10) < ?12
         AND ((SELECT COUNT(*) FROM email_logins WHERE email = ?5 AND created_at > ?10) < ?11
              OR EXISTS (SELECT 1 FROM email_logins WHERE email = ?5 AND device_hash = ?3 AND used_at IS NOT NULL))`,
    )
    .bind(
      key,
      await sha256(customToken),
      binding.deviceHash,
      binding.clientHash,
      request.email,
      request.locale,
      request.inid,
      now,
      now + emailLinkLifetimeMs,
      since,
      linksPerAddress,
      linksPerClient,
      linksPerAddressAndClient,
    )
    .run();
  if (inserted.meta.changes === 1) return { outcome: "created", key, customToken };
  const byClient = await db
    .prepare("SELECT COUNT(*) AS n FROM email_logins WHERE client_hash = ? AND created_at > ?")
    .bind(binding.clientHash, since)
    .first<{ n: number }>();
  return { outcome: "limited", limit: (byClient?.n ?? 0) >= linksPerClient ? "client" : "address" };
}

/** A link that was never asked for (as far as the service knows) is not told apart from a forged one. */
export type LinkUse = { outcome: "signedin"; session: string; state: LoginState } | { outcome: LinkRefusal };

/**
 * Uses a sign-in link: once, before it expires, from the browser that asked for it. Marking it
 * used is a conditional update, so two requests with the same link cannot both sign in.
 */
export async function useEmailLogin(
  db: Database,
  link: { key: string; customToken: string; deviceHash: string | undefined },
  now: number,
): Promise<LinkUse> {
  const row = await db
    .prepare("SELECT token_hash, device_hash, email, expires_at, used_at FROM email_logins WHERE key = ?")
    .bind(link.key)
    .first<{
      token_hash: string;
      device_hash: string;
      email: string;
      expires_at: number;
      used_at: number | null;
    }>();
  if (!row || row.token_hash !== (await sha256(link.customToken))) return { outcome: "unknown" };
  if (row.used_at !== null) return { outcome: "used" };
  if (now >= row.expires_at) return { outcome: "expired" };
  if (link.deviceHash !== row.device_hash) return { outcome: "wrongdevice" };
  const claimed = await db
    .prepare("UPDATE email_logins SET used_at = ? WHERE key = ? AND used_at IS NULL")
    .bind(now, link.key)
    .run();
  if (claimed.meta.changes !== 1) return { outcome: "used" };

  return { outcome: "signedin", ...(await startSession(db, row.email, "email", now)) };
}

export type SignInMethod = "email" | "google";

/** A new session for the account of `email` (made at its first sign-in), signed in by `method`. */
export async function startSession(
  db: Database,
  email: string,
  method: SignInMethod,
  now: number,
): Promise<{ session: string; state: LoginState }> {
  const userId = await userIdFor(db, email, now);
  const session = randomToken();
  await db
    .prepare("INSERT INTO sessions (id_hash, user_id, method, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
    .bind(await sha256(session), userId, method, now, now + sessionLifetimeSeconds * 1000)
    .run();
  return { session, state: loginStateOf(email, method) };
}

/** Whether the account of `email` was closed (privacy flow): it signs in no more. */
export async function isClosedAccount(db: Database, email: string): Promise<boolean> {
  const closed = await db
    .prepare("SELECT 1 FROM users WHERE email = ? AND closed_at IS NOT NULL")
    .bind(email)
    .first();
  return closed !== null;
}

/**
 * Marks a provider's ID token used (its SHA-256): the same token cannot sign in twice, even when
 * it leaks before it expires. False when it was used already.
 */
export async function claimProviderToken(db: Database, idToken: string, now: number): Promise<boolean> {
  const claimed = await db
    .prepare("INSERT INTO provider_logins (token_hash, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING")
    .bind(await sha256(idToken), now)
    .run();
  return claimed.meta.changes === 1;
}

/** The account of an address, made at its first sign-in. */
async function userIdFor(db: Database, email: string, now: number): Promise<string> {
  await db
    .prepare("INSERT INTO users (id, email, created_at) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING")
    .bind(crypto.randomUUID(), email, now)
    .run();
  const user = await db.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>();
  if (!user) throw new Error("the account was not stored");
  return user.id;
}

export type SessionLookup = { outcome: "active"; userId: string; state: LoginState } | { outcome: "ended" };

type ActiveSession = Extract<SessionLookup, { outcome: "active" }>;

/**
 * Active sessions this isolate looked up lately, by the cookie's hash (decision 048). A signed-in
 * page asks the account service three times (its status, then the page's reads in parallel), and
 * each asked D1 for the session. Only reads may use a remembered answer, for at most
 * `sessionReuseMs`: a write (a tag, a removal, a deletion, a sign-out) always asks D1, so nothing is
 * ever written for a session that has ended. Signing out or deleting the account through this
 * isolate forgets at once; through another isolate, a copy of the cookie can read for at most
 * `sessionReuseMs` more here, what it could read the moment before.
 */
const rememberedSessions = new Map<string, { session: ActiveSession; until: number }>();
export const sessionReuseMs = 10_000;
/** Enough for every session an isolate serves in `sessionReuseMs`; the oldest go first. */
const rememberedSessionsLimit = 1_000;

/**
 * The session a cookie names: active, or ended (signed out, expired, or its account closed).
 * `reuse: "recent"` (reads only) may answer from this isolate's lookups of the last `sessionReuseMs`.
 */
export async function findSession(
  db: Database,
  session: string,
  now: number,
  reuse: "recent" | "none" = "none",
): Promise<SessionLookup> {
  const idHash = await sha256(session);
  const remembered = rememberedSessions.get(idHash);
  if (reuse === "recent" && remembered && now < remembered.until) return remembered.session;
  const row = await db
    .prepare(
      `SELECT sessions.user_id, sessions.method, sessions.expires_at, users.email, users.closed_at
       FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.id_hash = ?`,
    )
    .bind(idHash)
    .first<{
      user_id: string;
      method: SignInMethod;
      expires_at: number;
      email: string;
      closed_at: number | null;
    }>();
  rememberedSessions.delete(idHash);
  if (!row || now >= row.expires_at || row.closed_at !== null) return { outcome: "ended" };
  const active: ActiveSession = {
    outcome: "active",
    userId: row.user_id,
    state: loginStateOf(row.email, row.method),
  };
  rememberedSessions.set(idHash, { session: active, until: Math.min(now + sessionReuseMs, row.expires_at) });
  if (rememberedSessions.size > rememberedSessionsLimit) {
    const oldest = rememberedSessions.keys().next().value;
    if (oldest !== undefined) rememberedSessions.delete(oldest);
  }
  return active;
}

/** Forgets this isolate's remembered sessions of an account that is being deleted. */
export function forgetSessionsOf(userId: string): void {
  for (const [idHash, { session }] of rememberedSessions) {
    if (session.userId === userId) rememberedSessions.delete(idHash);
  }
}

export async function endSession(db: Database, session: string): Promise<void> {
  const idHash = await sha256(session);
  await db.prepare("DELETE FROM sessions WHERE id_hash = ?").bind(idHash).run();
  rememberedSessions.delete(idHash);
}

/**
 * Spec 002 §3 login state of a sign-in through the account service: the web provider's kind
 * (FIREBASE), by e-mail link or with Google.
 */
function loginStateOf(email: string, method: SignInMethod): LoginState {
  return {
    loggedin: true,
    authenticationType: "FIREBASE",
    method,
    storage: "account",
    hasLibraryZone: false,
    email,
  };
}
