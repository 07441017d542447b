import * as v from "valibot";
import { type SiteStorage, storageDefaultExpiryMs } from "#app/shell/browser/storage.ts";
import { sessionEndedStatus } from "#rules/account.ts";

/**
 * The songs identified on this device, so that a visitor who is not signed in keeps more
 * than the latest match (webrec.fab_match). Newest first, at most `recentIdentificationsMax`, each
 * kept as long as the spec's records are (180 days). Signing in moves them into the library: each
 * becomes the tag its recognition would have made signed in (`web:{sessionId}`), so a recognition
 * already tagged, or moved twice from two tabs, is in the library once.
 */

export const recentIdentificationsKey = "webrec.recent";
/** A list a person reads at a glance; older ones drop off the end. */
export const recentIdentificationsMax = 30;

export const recentIdentificationSchema = v.object({
  /** The recognition's session id: the tag's recognition id once moved into the library. */
  sessionId: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{1,64}$/)),
  trackId: v.pipe(v.string(), v.regex(/^\d+$/)),
  weburl: v.pipe(v.string(), v.startsWith("/")),
  title: v.optional(v.string()),
  artist: v.optional(v.string()),
  /** When the match answered, epoch ms. */
  matchedAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type RecentIdentification = v.InferOutput<typeof recentIdentificationSchema>;

type Store = Pick<SiteStorage, "get" | "set">;

/** The list, newest first, without what has expired or does not parse. */
export function recentIdentifications(storage: Store, now: number): RecentIdentification[] {
  const stored = storage.get(recentIdentificationsKey);
  if (!stored.ok || !Array.isArray(stored.value)) return [];
  return stored.value.flatMap((entry) => {
    const parsed = v.safeParse(recentIdentificationSchema, entry);
    return parsed.success && parsed.output.matchedAt > now - storageDefaultExpiryMs ? [parsed.output] : [];
  });
}

export function addRecentIdentification(storage: Store, entry: RecentIdentification): void {
  const others = recentIdentifications(storage, entry.matchedAt).filter(
    (kept) => kept.sessionId !== entry.sessionId,
  );
  storage.set(recentIdentificationsKey, [entry, ...others].slice(0, recentIdentificationsMax));
}

export function removeRecentIdentification(storage: Store, sessionId: string, now: number): void {
  storage.set(
    recentIdentificationsKey,
    recentIdentifications(storage, now).filter((entry) => entry.sessionId !== sessionId),
  );
}

export type MoveOutcome = { moved: number; signedOut: boolean };

/**
 * Moves the list into the signed-in person's library, oldest first so the library's order is the
 * order they were heard in. Each one leaves the list once the service has it (201 new, 200 already
 * there) or refuses it for good (another 4xx: a track no longer in the catalogue); one that fails
 * otherwise stays for the next page; an ended session stops the move.
 */
export async function moveRecentIdentificationsToLibrary(
  storage: Store,
  fetcher: (input: string, init: RequestInit) => Promise<Response>,
  now: number,
): Promise<MoveOutcome> {
  let moved = 0;
  for (const entry of recentIdentifications(storage, now).reverse()) {
    let status: number;
    try {
      const response = await fetcher("/services/account/tags", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          source: "web",
          trackKey: entry.trackId,
          recognitionId: entry.sessionId,
          tagTime: entry.matchedAt,
        }),
      });
      status = response.status;
    } catch {
      continue;
    }
    if (status === sessionEndedStatus || status === 401) return { moved, signedOut: true };
    if (status >= 200 && status < 500) removeRecentIdentification(storage, entry.sessionId, now);
    if (status === 200 || status === 201) moved++;
  }
  return { moved, signedOut: false };
}
