import * as v from "valibot";
import type { TagContext } from "#app/bridge/bridge-schema.ts";
import { sessionEndedStatus } from "#rules/account.ts";
import { libraryCountSchema } from "#rules/library.ts";

/**
 * The browser's part of My Library (spec 002 §1 "Inside the native app, a bridge enables
 * tagging"; §8 "Status 456 on my-tags or count: Logout"): a tag the app made is saved to the
 * signed-in person's library.
 */

export type AppTagOutcome =
  | { outcome: "saved"; count: number }
  | { outcome: "signedout" }
  | { outcome: "failed" };

/**
 * Saves the app's tag. Its recognition id is the tag's own time and track, so the app telling the
 * page about one tag twice (a retry, a second foreground) saves it once.
 */
export async function saveAppTag(
  fetcher: (input: string, init: RequestInit) => Promise<Response>,
  context: TagContext,
): Promise<AppTagOutcome> {
  const tagTime = Math.round(context.tagtimestamp);
  try {
    const response = await fetcher("/services/account/tags", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        trackKey: context.trackid,
        recognitionId: `${tagTime}-${context.trackid}`,
        tagTime,
      }),
    });
    if (response.status === sessionEndedStatus || response.status === 401) return { outcome: "signedout" };
    const parsed = v.safeParse(libraryCountSchema, await response.json().catch(() => undefined));
    if (!response.ok || !parsed.success) return { outcome: "failed" };
    return { outcome: "saved", count: parsed.output.count };
  } catch {
    return { outcome: "failed" };
  }
}
