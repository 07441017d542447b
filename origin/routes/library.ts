import * as v from "valibot";
import { tracksByKeys } from "#origin/db/tracks.ts";
import type { OriginApp, OriginContext } from "#origin/env.ts";
import { intParam, invalidParam, jsonBody, noStoreJson, notFound, parseParams } from "#origin/http.ts";
import { recordIdentification } from "#origin/identifications.ts";
import {
  addTag,
  countTags,
  decodeCursor,
  findTag,
  hideTag,
  listTags,
  restoreTag,
  type StoredTag,
} from "#origin/library.ts";
import { trackSummary } from "#origin/shapes.ts";
import { signedInAccount } from "#origin/signed-in.ts";
import {
  isAcceptedTagTime,
  type LibraryTag,
  maxTagPageSize,
  tagIdSchema,
  tagPageSize,
  tagPageTokenSchema,
  tagWriteSchema,
} from "#rules/library.ts";

// My Library in the account service (spec 002 §7 "Tags and status", decision 019): the signed-in
// person's tags, their count, removal and its undo, and the app's tags. Every answer
// is the person's own: `no-store`, 401 without a session, 456 when it ended.

const listQuerySchema = v.object({
  limit: intParam("limit", 1, maxTagPageSize),
  token: v.optional(tagPageTokenSchema),
});

function libraryTagOf(tag: StoredTag, track: Parameters<typeof trackSummary>[0]): LibraryTag {
  return {
    tagid: tag.id,
    key: String(tag.trackKey),
    timestamp: tag.tagTime,
    location: tag.location,
    track: trackSummary(track),
  };
}

/** The tag an answer names, with its track, or a 404 for anything not this account's. */
async function tagAnswer(c: OriginContext, userId: string, tagId: string): Promise<Response> {
  const tag = await findTag(c.var.db, userId, tagId);
  const [track] = tag ? await tracksByKeys(c.var.db, [tag.trackKey]) : [];
  if (!tag || !track) throw notFound("No such tag");
  return noStoreJson({ tag: libraryTagOf(tag, track) }, 200);
}

export function registerLibrary(origin: OriginApp) {
  /**
   * Spec 002 §7 "GET my tags list: limit default 20, token for the next page", with the count
   * (the library page's one call for both, decision 048).
   */
  origin.get("/account/tags", async (c) => {
    const account = await signedInAccount(c);
    if ("refused" in account) return account.refused;
    const query = parseParams(listQuerySchema, { limit: c.req.query("limit"), token: c.req.query("token") });
    const cursor = query.token === undefined ? undefined : decodeCursor(query.token);
    if (query.token !== undefined && !cursor) throw invalidParam("Invalid token");
    const page = await listTags(c.var.db, account.userId, query.limit ?? tagPageSize, cursor);
    return noStoreJson(
      {
        tags: page.tags.map(({ tag, track }) => libraryTagOf(tag, track)),
        ...(page.token === undefined ? {} : { token: page.token }),
        start: page.start,
        count: page.count,
      },
      200,
    );
  });

  /** Spec 002 §7 "GET tag count": saved by the site as the user flag shazamcount. */
  origin.get("/account/tags/count", async (c) => {
    const account = await signedInAccount(c);
    if ("refused" in account) return account.refused;
    return noStoreJson({ count: await countTags(c.var.db, account.userId) }, 200);
  });

  /**
   * A tag the app made (the native bridge's tagging), or a recognition of this site made before
   * signing in: 201 when new, 200 when it was made before.
   */
  origin.post("/account/tags", async (c) => {
    const account = await signedInAccount(c);
    if ("refused" in account) return account.refused;
    const write = parseParams(tagWriteSchema, await jsonBody(c));
    const now = Date.now();
    if (!isAcceptedTagTime(write.tagTime, now)) {
      throw invalidParam("tagTime must be a moment since 2000-01-01 and not in the future");
    }
    const trackKey = Number(write.trackKey);
    if ((await tracksByKeys(c.var.db, [trackKey])).length === 0) throw notFound("No such track");
    const added = await addTag(
      c.var.db,
      account.userId,
      {
        // A web recognition is the tag tagRecognition makes when signed in: moved twice, kept once.
        recognitionId: `${write.source}:${write.recognitionId}`,
        trackKey,
        tagTime: write.tagTime,
        location: { country: null, lat: write.lat ?? null, lng: write.lng ?? null },
      },
      now,
    );
    // The app's identification, once: a retried request finds its tag and is not counted again.
    // A web recognition was counted when it matched.
    if (added.created && write.source === "app") await recordIdentification(c, { trackKey });
    const count = await countTags(c.var.db, account.userId);
    return noStoreJson({ tagid: added.id, count }, added.created ? 201 : 200);
  });

  /** Removes a tag from the library (spec 002 §3 HIDDEN); its undo is `…/restore`. */
  origin.post("/account/tags/:id/hide", async (c) => {
    const account = await signedInAccount(c);
    if ("refused" in account) return account.refused;
    const tagId = parseParams(tagIdSchema, c.req.param("id"));
    if (!(await hideTag(c.var.db, account.userId, tagId, Date.now()))) throw notFound("No such tag");
    return tagAnswer(c, account.userId, tagId);
  });

  origin.post("/account/tags/:id/restore", async (c) => {
    const account = await signedInAccount(c);
    if ("refused" in account) return account.refused;
    const tagId = parseParams(tagIdSchema, c.req.param("id"));
    if (!(await restoreTag(c.var.db, account.userId, tagId))) throw notFound("No such tag");
    return tagAnswer(c, account.userId, tagId);
  });
}
