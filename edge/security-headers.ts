import { robotCheckOrigin } from "#rules/account.ts";
/**
 * Security headers of the site's HTML (docs/decisions/028-hardening.md).
 *
 * React pages get a nonce-based Content-Security-Policy: Remix's inline scripts (the context,
 * module loaders, single-fetch streaming) carry the request's nonce, and no other inline script
 * runs. Style attributes stay allowed (React components set them). `frame-ancestors 'self'`: no
 * other site may frame a page (the microphone page included); the site's own frames may, because
 * the app's track frame navigates its top window (spec 000 §2, app/shell/browser/runtime.ts).
 *
 * AMP pages run only the AMP runtime from cdn.ampproject.org (no inline script at all, so no
 * nonce), keep AMP's inline `<style amp-boilerplate>`/`<style amp-custom>`, and may be framed:
 * AMP caches show them inside their viewers.
 *
 * The nonce appears only in `nonce="…"` attributes of `<script>` elements and in this header, so
 * a cache of documents (decision 055) can replace it per response with an HTMLRewriter on
 * `script[nonce]` and a new header, never serving one visitor's nonce to another.
 */

/** A fresh nonce for one response: 16 random bytes, base64. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

const common = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  // The microphone for recognition and the location for concerts near you, on the site only.
  "Permissions-Policy": "microphone=(self), geolocation=(self), camera=(), payment=(), usb=()",
};

/**
 * The Content-Security-Policy of a React page with this nonce (none: a page without inline
 * scripts). With the robot check configured, every page allows Turnstile's script and frame: the
 * login page may be reached by a client-side navigation, which keeps the first page's policy.
 */
export function pagePolicy(nonce: string | undefined, options: { robotCheck?: boolean } = {}): string {
  const robotCheck = options.robotCheck ? ` ${robotCheckOrigin}` : "";
  return [
    "default-src 'self'",
    (nonce === undefined ? "script-src 'self'" : `script-src 'self' 'nonce-${nonce}'`) + robotCheck,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    // The device maker's cloud sign-in and library are called from the browser.
    "connect-src 'self' https://api.apple-cloudkit.com",
    "worker-src 'self'",
    // The video site's embed page (origin/routes/video.ts), served by the site's own origin.
    `frame-src 'self'${robotCheck}`,
    "object-src 'none'",
    "base-uri 'none'",
    // A form (and the redirects after it) goes to this site only: an injected form cannot post away.
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}

/** The Content-Security-Policy of an AMP page. */
export const ampPolicy = [
  "default-src 'self'",
  "script-src https://cdn.ampproject.org/",
  "style-src 'unsafe-inline' https://cdn.ampproject.org/",
  "img-src 'self' data: https:",
  "media-src 'self' https:",
  "connect-src 'self' https://cdn.ampproject.org/",
  "object-src 'none'",
  "base-uri 'none'",
].join("; ");

/**
 * Adds the security headers to an HTML answer; every other answer (JSON, CSV, a redirect) gets
 * `nosniff`, so no browser reads a download or a JSON answer as a page (decision 030). A policy the
 * page set itself stays: both are enforced.
 */
export function withSecurityHeaders(
  response: Response,
  options: { nonce: string | undefined; https: boolean; amp: boolean; robotCheck?: boolean },
): Response {
  if (!/^text\/html\b/i.test(response.headers.get("content-type") ?? "")) return withNosniff(response);
  const answer = new Response(response.body, response);
  for (const [name, value] of Object.entries(common)) answer.headers.set(name, value);
  const policy = options.amp ? ampPolicy : pagePolicy(options.nonce, options);
  answer.headers.append("Content-Security-Policy", policy);
  if (options.https) answer.headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  return answer;
}

/** The answer with `X-Content-Type-Options: nosniff` (a copy when its headers are immutable). */
export function withNosniff(response: Response): Response {
  if (response.headers.get("X-Content-Type-Options") === "nosniff") return response;
  const answer = new Response(response.body, response);
  answer.headers.set("X-Content-Type-Options", "nosniff");
  return answer;
}
