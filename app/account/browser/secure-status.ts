import * as v from "valibot";
import { getJson, type RequestOptions, safeJson } from "#app/shell/browser/request.ts";
import { loginStateSchema, signInRequiredSchema } from "#rules/account.ts";
import { SiteError } from "#rules/errors.ts";

/** What /secure/status says of this browser's session: signed in, or where to sign in. */
export type SecureStatus = { status: "signedin" } | { status: "signin"; url: string } | { status: "unknown" };

/**
 * Spec 002 §7 "GET /secure/status (no cache): on 401 with a JSON redirectUrl, navigate to it with
 * {redirectPath} replaced by the current path and query". The path goes in as one query value,
 * encoded, as the server's own sign-in check sends it (`requireAccount`). A redirectUrl to another
 * site is not followed: this page only ever sends the person to this site's sign-in.
 */
export async function checkSecureStatus(
  location: Pick<Location, "pathname" | "search" | "origin">,
  options: RequestOptions = {},
): Promise<SecureStatus> {
  try {
    await getJson("/secure/status", loginStateSchema, options);
    return { status: "signedin" };
  } catch (error) {
    if (!(error instanceof SiteError) || error.type !== "unauthorized") return { status: "unknown" };
    const answer = v.safeParse(signInRequiredSchema, safeJson(error.body));
    if (!answer.success) return { status: "unknown" };
    const current = encodeURIComponent(location.pathname + location.search);
    const target = new URL(answer.output.redirectUrl.replaceAll("{redirectPath}", current), location.origin);
    if (target.origin !== location.origin) return { status: "unknown" };
    return { status: "signin", url: target.pathname + target.search + target.hash };
  }
}
