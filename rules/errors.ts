/**
 * The one error catalogue of the site (spec 000 §8, 001 §8). Every failure is a value of
 * `SiteErrorType`; `statusOfError` maps it to an HTTP status once, and pages localize it by type.
 */
export const siteErrorTypes = [
  "invalidparam",
  "jserror",
  "notfound",
  "timeout",
  "network",
  "limitexceeded",
  "abort",
  "serviceerror",
  "redirect",
  "image_missing",
  "playaudio_code",
  "unsupported",
  "baddata",
  "outofsync",
  "limitnotmet",
  "unauthorized",
] as const;

export type SiteErrorType = (typeof siteErrorTypes)[number];

export function isSiteErrorType(value: string): value is SiteErrorType {
  return (siteErrorTypes as readonly string[]).includes(value);
}

/** Spec 000 §3 "Error object": type, message, forceshow, args. */
export class SiteError extends Error {
  readonly type: SiteErrorType;
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly forceshow: boolean;
  readonly args: Record<string, unknown> | undefined;

  constructor(
    type: SiteErrorType,
    message: string,
    options: { status?: number; body?: string; forceshow?: boolean; args?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "SiteError";
    this.type = type;
    this.status = options.status;
    this.body = options.body;
    this.forceshow = options.forceshow ?? false;
    this.args = options.args;
  }
}

/** The HTTP status a page answers with when it fails with this error type. */
export function statusOfError(type: SiteErrorType, upstreamStatus?: number): number {
  switch (type) {
    case "invalidparam":
      return 400;
    case "unauthorized":
      return 401;
    case "notfound":
    case "image_missing":
      return 404;
    case "limitexceeded":
      return 429;
    case "unsupported":
      return 501;
    case "timeout":
      return 504;
    case "network":
      return 502;
    case "abort":
      // Spec 000 §8 "abort gives an abort error": the upstream call was cut off before its answer
      // came, so there is no answer to pass on, as with a network failure: a bad gateway (RFC 9110
      // §15.6.3), and asking again can work. Not nginx's 499, which the IANA registry does not
      // hold and which caches and monitors read as an unknown client error.
      return 502;
    case "redirect":
      // One with a page path became a real move (app/shell/http.server.ts); without one (spec 000 §8
      // "status 404 with no path goes to /error/notfound") it is not found, else the upstream failed.
      return upstreamStatus === 404 ? 404 : 502;
    // The upstream answered data of another shape: its fault, a bad gateway, not our 500 (decision 028).
    case "baddata":
      return 502;
    case "serviceerror":
      // An upstream 404 stays a 404 for the visitor; every other upstream failure is our 502.
      return upstreamStatus === 404 ? 404 : 502;
    default:
      return 500;
  }
}
