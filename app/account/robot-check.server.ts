import * as v from "valibot";
import { robotCheckAction, robotCheckField, robotCheckOrigin } from "#rules/account.ts";
import { siteOriginOf } from "#rules/env.ts";

/**
 * The e-mail sign-in's robot check (spec 000 §5 "please make sure you are not a robot"; decision
 * 042): Cloudflare Turnstile. The login form carries the widget's token (`cf-turnstile-response`);
 * the server asks Turnstile's siteverify whether it is a fresh token of this site's widget, made on
 * this site for the login action. Where Turnstile is not configured there is no check at all.
 */

const siteverifyUrl = `${robotCheckOrigin}/turnstile/v0/siteverify`;
/** Turnstile's tokens are at most 2048 characters; anything longer is not one. */
const tokenMaxLength = 2048;
const siteverifyTimeoutMs = 5000;

const siteverifySchema = v.object({
  success: v.boolean(),
  hostname: v.optional(v.string()),
  action: v.optional(v.string()),
});

/** passed; robot: no token, or one Turnstile refuses; unavailable: Turnstile could not be asked. */
export type RobotCheckOutcome = "passed" | "robot" | "unavailable";

export async function checkRobot(
  config: { SITE_ORIGIN?: string },
  secretKey: string,
  form: FormData,
  clientIp: string | null,
): Promise<RobotCheckOutcome> {
  const token = form.get(robotCheckField);
  if (typeof token !== "string" || token === "" || token.length > tokenMaxLength) return "robot";
  const body = new URLSearchParams();
  body.set("secret", secretKey);
  body.set("response", token);
  if (clientIp) body.set("remoteip", clientIp);
  let answer: unknown;
  try {
    const response = await fetch(siteverifyUrl, {
      method: "POST",
      body,
      signal: AbortSignal.timeout(siteverifyTimeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return "unavailable";
    }
    answer = await response.json();
  } catch {
    return "unavailable";
  }
  const parsed = v.safeParse(siteverifySchema, answer);
  if (!parsed.success) return "unavailable";
  const { success, hostname, action } = parsed.output;
  // The token must come from this site's own page (SITE_ORIGIN, never the request's Host).
  const siteHost = new URL(siteOriginOf(config)).hostname;
  return success && hostname === siteHost && action === robotCheckAction ? "passed" : "robot";
}
