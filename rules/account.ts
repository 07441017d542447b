import * as v from "valibot";
import { parseCookieHeader, serializeCookie } from "./cookies";

/**
 * Sign-in rules shared by the site, the browser and the embedded origin's account service: the
 * e-mail address rule, the login state, the e-mail sign-in request, the cookies of a signed-in
 * browser, the safe return path, and the numbers (docs/decisions/017-sign-in.md says why).
 */

/** How long an e-mailed sign-in link works (spec 000 §5 "valid once and for a limited time"). */
export const emailLinkLifetimeMs = 15 * 60 * 1000;
/** How long a session lasts: 30 days from sign-in, then the person signs in again. */
export const sessionLifetimeSeconds = 30 * 24 * 60 * 60;
/**
 * Sign-in links one address may ask for from one client in `rateWindowMs`: a person retrying. A
 * stranger's requests for someone's address count against the stranger's client, not the owner's.
 */
export const linksPerAddressAndClient = 5;
/**
 * Sign-in links one address may be sent in `rateWindowMs` from all clients together: not a mail
 * bomb. A device that has signed in to the account before is not held to it, so strangers together
 * cannot lock the owner's own devices out (decision 030, finding 10).
 */
export const linksPerAddress = 20;
/** Sign-in links one client (IP address) may ask for in `rateWindowMs`: a household, not a script. */
export const linksPerClient = 20;
export const rateWindowMs = 60 * 60 * 1000;
/** Spec 002 §9 "Maximum e-mail request retries 3". */
export const emailRequestRetries = 3;
/** Spec 002 §9 "login popup 600x500" (width × height). */
export const loginPopup = { width: 600, height: 500 } as const;
/** What the browser needs to reach CloudKit (rules/env.ts reads it); its values are public. */
export type CloudKitConfig = {
  container: string;
  apiToken: string;
  environment: "development" | "production";
};
/** Spec 002 §9 "Session poll 30 s, at most 20 polls" (the device maker's cloud provider). */
export const cloudSessionPoll = { intervalMs: 30_000, maxPolls: 20 } as const;

/**
 * Spec 000 §5 "Email: at most 254 characters, standard address pattern, local part at most 64,
 * each domain label at most 63." The pattern is the WHATWG one (what `<input type=email>` checks),
 * with a dot required in the domain: a mail link is only ever sent across the internet.
 */
const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isValidEmail(address: string): boolean {
  if (address.length > 254 || !emailPattern.test(address)) return false;
  const at = address.lastIndexOf("@");
  if (at > 64) return false;
  const local = address.slice(0, at);
  if (local.startsWith(".") || local.endsWith(".") || local.includes("..")) return false;
  return address
    .slice(at + 1)
    .split(".")
    .every((label) => label.length <= 63);
}

/** An address as typed: trimmed, checked, and lowercased (one account per mailbox, any case). */
export const emailSchema = v.pipe(
  v.string("Please enter a valid email address"),
  v.trim(),
  v.check(isValidEmail, "Please enter a valid email address"),
  v.toLowerCase(),
);

/** The path of the e-mail link's landing (spec 002 §2): web, or web_mobile on iOS, iPad and Android. */
export const validationPlatforms = ["web", "web_mobile"] as const;
export type ValidationPlatform = (typeof validationPlatforms)[number];

/** Spec 002 §3 "E-mail login request: email, callback, locale, userAgent, inid (generated id)". */
export const emailLoginRequestSchema = v.object({
  email: emailSchema,
  /** The landing the link points to: this site's /validate-email/{platform}, with its `redirect`. */
  callback: v.pipe(v.string(), v.maxLength(2048), v.url("callback must be an absolute URL")),
  locale: v.pipe(
    v.string(),
    v.maxLength(16),
    v.regex(/^[A-Za-z]{2}([-_][A-Za-z0-9]{2,4})?$/, "Unknown locale"),
  ),
  userAgent: v.pipe(v.string(), v.maxLength(512)),
  inid: v.pipe(v.string(), v.maxLength(64), v.regex(/^[\w-]*$/, "Invalid inid")),
});
export type EmailLoginRequest = v.InferOutput<typeof emailLoginRequestSchema>;

/** What the link carries back (spec 002 §2 `key` and `customtoken`). */
export const emailValidationSchema = v.object({
  /** Spec 002 §2 `temp=1`: sign in for this browser session only (a shared computer). */
  temp: v.optional(v.boolean(), false),
  key: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/, "Invalid key")),
  customtoken: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,128}$/, "Invalid custom token")),
});

/** Why a link does not sign in: each has its own screen. */
export const linkRefusals = ["expired", "used", "wrongdevice", "unknown"] as const;
export type LinkRefusal = (typeof linkRefusals)[number];
export const linkRefusalSchema = v.object({ error: v.string(), reason: v.picklist(linkRefusals) });

/** Spec 002 §3 "Login state: loggedin, authenticationType (ICLOUD or FIREBASE), method, storage, hasLibraryZone". */
export const loginStateSchema = v.object({
  loggedin: v.boolean(),
  authenticationType: v.picklist(["ICLOUD", "FIREBASE"]),
  method: v.picklist(["google", "email", "icloud"]),
  storage: v.picklist(["account", "cloud"]),
  hasLibraryZone: v.boolean(),
  /** The signed-in address, shown in the header's account menu. */
  email: v.string(),
});
export type LoginState = v.InferOutput<typeof loginStateSchema>;

/** The 401 of /secure/status (spec 002 §7): where to sign in, `{redirectPath}` to be filled in. */
export const signInRequiredSchema = v.object({ error: v.literal("unauthorized"), redirectUrl: v.string() });

/**
 * Status of an account call whose session is gone (signed out elsewhere, expired, account
 * closed): spec 002 §8 "Status 456 on my-tags or count: Logout". A call without any session is 401.
 */
export const sessionEndedStatus = 456;

export const accountCookieNames = {
  /** The opaque session id: HttpOnly, no user data (the account service keeps its hash). */
  session: "tw_session",
  /** The browser a sign-in link was asked from: the link works only where this cookie is. */
  device: "tw_device",
  /** The D1 bookmark of the person's last write: their reads see at least that (decision 062). */
  bookmark: "tw_bookmark",
} as const;

/** A cookie value the account service issued: 32 random bytes, base64url. */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/**
 * A D1 Sessions API bookmark as the cookie may hold it. D1 calls it opaque; the ones it gives are
 * hex groups joined by dashes (about 60 characters), so this allows what any such shape needs and
 * bounds the rest: one that fails is ignored and the read is unconstrained (decision 062).
 */
export const bookmarkSchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(128),
  v.regex(/^[A-Za-z0-9-]+$/),
);

/**
 * How long a bookmark cookie lasts: long past the replicas' lag, after which any replica has the
 * write anyway; short, so that a person's reads are not held to an old point for nothing.
 */
export const bookmarkLifetimeSeconds = 120;

export function readAccountCookies(header: string | null | undefined) {
  const cookies = parseCookieHeader(header);
  const valid = (value: string | undefined) => (value && tokenPattern.test(value) ? value : undefined);
  const bookmark = v.safeParse(bookmarkSchema, cookies.get(accountCookieNames.bookmark));
  return {
    session: valid(cookies.get(accountCookieNames.session)),
    device: valid(cookies.get(accountCookieNames.device)),
    bookmark: bookmark.success ? bookmark.output : undefined,
  };
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite Lax (sent when the person follows
 * a link to the site, not on another site's POST), Secure on https.
 */
export function sessionCookie(value: string, secure: boolean, persistent = true): string {
  const cookie = serializeCookie(accountCookieNames.session, value, {
    maxAge: sessionLifetimeSeconds,
    sameSite: "Lax",
    httpOnly: true,
    secure,
  });
  // A temporary sign-in (the link's `temp=1`): a browser-session cookie, gone when the browser closes.
  return persistent ? cookie : cookie.replace(/; Max-Age=\d+/, "");
}

export function deviceCookie(value: string, secure: boolean): string {
  return serializeCookie(accountCookieNames.device, value, {
    maxAge: 365 * 24 * 60 * 60,
    sameSite: "Lax",
    httpOnly: true,
    secure,
  });
}

/** The bookmark of a person's write (decision 062): like the session, HttpOnly and SameSite Lax. */
export function bookmarkCookie(bookmark: string, secure: boolean): string {
  return serializeCookie(accountCookieNames.bookmark, bookmark, {
    maxAge: bookmarkLifetimeSeconds,
    sameSite: "Lax",
    httpOnly: true,
    secure,
  });
}

export function expiredSessionCookie(secure: boolean): string {
  return serializeCookie(accountCookieNames.session, "", {
    maxAge: 0,
    sameSite: "Lax",
    httpOnly: true,
    secure,
  });
}

const returnBase = "https://site.invalid";
/** Backslashes (browsers read them as "/") and control characters (they drop tabs and newlines). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const ambiguousCharacters = /[\\\u0000-\u001f\u007f]/;

const parseOnSite = (path: string): URL | undefined => {
  try {
    return new URL(path, returnBase);
  } catch {
    return undefined;
  }
};

/**
 * Where a sign-in, a sign-out or a provider's callback may send the person back: a path of this
 * site, never another site (decision 030, finding 4). The value is normalised first and then checked:
 * dot segments resolve before the check (`/.//evil`, `/%2e//evil`, `/a/..//evil` are `//evil`), and
 * so does every further percent-decoding a later reader might apply (`/%2f%2fevil`, `/%252f…`).
 * Anything that is, or could become, another host is refused; the answer is the normalised path.
 */
export function safeRedirectPath(value: string | null | undefined): string | undefined {
  if (!value || value.length > 2048) return undefined;
  if (!value.startsWith("/") || ambiguousCharacters.test(value)) return undefined;
  const resolved = parseOnSite(value);
  if (resolved?.origin !== returnBase) return undefined;
  let path = resolved.pathname;
  // Each round decodes once more and normalises again; a path still changing after four is refused.
  for (let round = 0; round < 4; round++) {
    if (path.startsWith("//") || ambiguousCharacters.test(path)) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return undefined;
    }
    if (decoded === path) return resolved.pathname + resolved.search + resolved.hash;
    if (ambiguousCharacters.test(decoded)) return undefined;
    const again = parseOnSite(decoded);
    if (again?.origin !== returnBase) return undefined;
    // Stable once normalising re-encodes what decoding undid ("café" is "caf%C3%A9" again).
    if (again.pathname === path) return resolved.pathname + resolved.search + resolved.hash;
    path = again.pathname;
  }
  return undefined;
}

/** The local outbox (/services/account/outbox), as /dev/outbox shows it. */
export const outboxSchema = v.object({
  mails: v.array(
    v.object({
      id: v.number(),
      to: v.string(),
      subject: v.string(),
      text: v.string(),
      html: v.string(),
      sentAt: v.number(),
    }),
  ),
});

/**
 * The web provider's sign-in (Google, OpenID Connect with PKCE; origin/oidc.ts): the site asks the
 * account service for the provider's authorization address, then hands it the code that came back.
 * The client secret stays with the account service.
 */
const urlToken = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, "Invalid token"));
export const webProviderAuthorizeSchema = v.object({
  /** This site's /login/google/callback (any language): the only redirect_uri the client has. */
  redirectUri: v.pipe(v.string(), v.maxLength(512), v.url()),
  state: urlToken,
  nonce: urlToken,
  codeChallenge: urlToken,
});
export const webProviderSignInSchema = v.object({
  redirectUri: v.pipe(v.string(), v.maxLength(512), v.url()),
  code: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)),
  /** RFC 9207: the callback's `iss`, when the provider sends one; it must name the issuer asked. */
  iss: v.optional(v.pipe(v.string(), v.maxLength(512))),
  codeVerifier: urlToken,
  nonce: urlToken,
});
export const webProviderCallbackPath = /^(\/[a-z]{2}(-[a-z]{2,4})?)?\/login\/google\/callback$/;

/** Which sign-in providers the account service can use (the others are shown as not available). */
export const providersSchema = v.object({ email: v.boolean(), google: v.boolean() });
export type Providers = v.InferOutput<typeof providersSchema>;

/** Why a web-provider sign-in was refused: each has its own message on the callback screen. */
export const webProviderRefusals = ["unavailable", "refused", "closed", "replayed"] as const;
export type WebProviderRefusal = (typeof webProviderRefusals)[number];
export const webProviderRefusalSchema = v.object({
  error: v.string(),
  reason: v.picklist(webProviderRefusals),
});

/**
 * The web-provider sign-in under way in this browser (`tw_oidc`): the state, nonce and PKCE
 * verifier that only the callback may use, where to go back to, and whether it runs in the login
 * popup. HttpOnly, SameSite Lax (the provider sends the browser back with a top-level GET), ten
 * minutes: a sign-in not finished by then starts again.
 */
export const webProviderCookieName = "tw_oidc";
export const webProviderTransactionSchema = v.object({
  state: urlToken,
  nonce: urlToken,
  verifier: urlToken,
  redirect: v.optional(v.string()),
  popup: v.boolean(),
});
export type WebProviderTransaction = v.InferOutput<typeof webProviderTransactionSchema>;

export function webProviderCookie(transaction: WebProviderTransaction | null, secure: boolean): string {
  const value = transaction ? btoa(JSON.stringify(transaction)).replaceAll("=", "") : "";
  return serializeCookie(webProviderCookieName, value, {
    maxAge: transaction ? 600 : 0,
    sameSite: "Lax",
    httpOnly: true,
    secure,
  });
}

export function readWebProviderCookie(header: string | null | undefined): WebProviderTransaction | undefined {
  const value = parseCookieHeader(header).get(webProviderCookieName);
  if (!value || value.length > 1024) return undefined;
  try {
    const parsed = v.safeParse(webProviderTransactionSchema, JSON.parse(atob(value)));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** Where Cloudflare Turnstile (the e-mail sign-in's robot check) serves its script, frame and siteverify. */
export const robotCheckOrigin = "https://challenges.cloudflare.com";
/** The form field Cloudflare Turnstile's widget puts its token in (the e-mail sign-in's robot check). */
export const robotCheckField = "cf-turnstile-response";
/** The widget's action, checked in siteverify's answer: a token made for another form is refused. */
export const robotCheckAction = "login";
