import * as v from "valibot";
import { artistBy } from "#origin/db/artists.ts";
import { lyricsOf } from "#origin/db/lyrics.ts";
import { tagTotals } from "#origin/db/tag-counts.ts";
import { type TrackRow, tracksByKeys, tracksNear } from "#origin/db/tracks.ts";
import type { OriginApp } from "#origin/env.ts";
import {
  answerContext,
  cachePolicy,
  countrySchema,
  intParam,
  invalidParam,
  json,
  languageSchema,
  notFound,
  parseParams,
  platformSchema,
} from "#origin/http.ts";
import { artistPayload, trackPayload, trackSummary } from "#origin/shapes.ts";
import { trackKeyOf as keyOfSegment } from "#rules/addresses.ts";
import type { syncedLyricsSchema } from "#rules/schemas/lyrics.ts";
import type { tagCountSchema } from "#rules/schemas/tagcount.ts";

/** Spec 001 §5 internal messages. */
const messages = {
  trackNoId: "Track service No id",
  lyricsNoAdamId: "Lyrics service No adam id",
  noSyncedLyrics: "No Synced Lyrics",
  tagCountNoId: "TrackTagCount service No id",
} as const;

/** Most ids one tag count list answers. */
export const tagCountListMax = 200;

const pathSchema = v.object({ lang: languageSchema, country: countrySchema, platform: platformSchema });
const trackQuerySchema = v.object({
  itsct: v.optional(v.pipe(v.string(), v.maxLength(200, "itsct is too long"))),
  trackLength: intParam("trackLength", 0, 24 * 3_600_000),
  limit: intParam("limit", 1, 50),
});

/** Spec 001 §5: the track key of the path segment (rules/addresses.ts `trackKeyOf`), as the database's integer. */
function trackKeyOf(segment: string): number {
  const key = keyOfSegment(segment);
  if (key === undefined) throw invalidParam(messages.trackNoId);
  return Number(key);
}

export function registerContent(origin: OriginApp) {
  /** Spec 001 §7 "Track URL by {trackId}, with itsct and trackLength" (web or iphone variant). */
  origin.get("/track/v1/:lang/:country/:platform/:trackId", async (c) => {
    const path = parseParams(pathSchema, c.req.param());
    parseParams(trackQuerySchema, c.req.query());
    const key = trackKeyOf(c.req.param("trackId"));
    const [row] = await tracksByKeys(c.var.db, [key]);
    if (!row) throw notFound(`No track ${key}`);
    const lyrics = row.has_lyrics ? await lyricsOf(c.var.db, "track_key", String(key)) : undefined;
    return json(
      c,
      trackPayload(row, answerContext(path.country, path.lang, path.platform), lyrics),
      cachePolicy.catalogue,
    );
  });

  /** Recommendations (the RELATED section's url): same artist first, then same album, then genre. */
  origin.get("/track/v1/:lang/:country/:platform/:trackId/related", async (c) => {
    parseParams(pathSchema, c.req.param());
    const { limit = 20 } = parseParams(trackQuerySchema, c.req.query());
    const key = trackKeyOf(c.req.param("trackId"));
    const [row] = await tracksByKeys(c.var.db, [key]);
    if (!row) throw notFound(`No track ${key}`);
    const candidates = await tracksNear(c.var.db, row);
    const affinity = (t: TrackRow) =>
      (t.artist_id === row.artist_id ? 2 : 0) + (t.album_id === row.album_id ? 1 : 0);
    const related = candidates
      .sort((a, b) => affinity(b) - affinity(a) || b.total - a.total || a.key - b.key)
      .slice(0, limit);
    return json(c, { tracks: related.map(trackSummary) }, cachePolicy.catalogue);
  });

  /** Spec 001 §7 "Artist by artistId". */
  origin.get("/artist/v1/:lang/:country/:platform/:artistId", async (c) => {
    parseParams(pathSchema, c.req.param());
    const id = parseParams(
      v.pipe(v.string(), v.regex(/^\d{1,15}$/, "Artist id must be numeric")),
      c.req.param("artistId"),
    );
    const row = await artistBy(c.var.db, "id", id);
    if (!row) throw notFound(`No artist ${id}`);
    return json(c, artistPayload(row), cachePolicy.catalogue);
  });

  /** Spec 001 §7 tag count for a track. */
  origin.get("/count/v2/web/track/:trackId", async (c) => {
    const id = c.req.param("trackId");
    if (!/^\d{1,15}$/.test(id)) throw invalidParam(messages.tagCountNoId);
    const totals = await tagTotals(c.var.db, [Number(id)]);
    const count = totals.get(Number(id));
    if (count === undefined) throw notFound(`No track ${id}`);
    const body: v.InferInput<typeof tagCountSchema> = { id, ...count };
    return json(c, body, cachePolicy.counts);
  });

  /** Spec 001 §7 tag count list with repeated id= parameters; unknown ids are left out. */
  origin.get("/count/v2/web/tracks", async (c) => {
    const ids = c.req.queries("id") ?? [];
    if (ids.length === 0 || ids.some((id) => !/^\d{1,15}$/.test(id)))
      throw invalidParam(messages.tagCountNoId);
    if (ids.length > tagCountListMax) throw invalidParam(`At most ${tagCountListMax} ids`);
    const totals = await tagTotals(c.var.db, ids.map(Number));
    const body: v.InferInput<typeof tagCountSchema>[] = ids.flatMap((id) => {
      const count = totals.get(Number(id));
      return count === undefined ? [] : [{ id, ...count }];
    });
    return json(c, body, cachePolicy.counts);
  });

  /** Synced lyrics by the song's catalogue (adam) id: the LYRICS section's url. */
  origin.get("/lyrics/v1/:country/songs/:adamid/synced", async (c) => {
    parseParams(v.object({ country: countrySchema }), { country: c.req.param("country") });
    const adamid = c.req.param("adamid");
    if (!/^\d{1,15}$/.test(adamid)) throw invalidParam(messages.lyricsNoAdamId);
    const lyrics = await lyricsOf(c.var.db, "adamid", adamid);
    if (!lyrics) throw notFound(messages.noSyncedLyrics);
    const body: v.InferInput<typeof syncedLyricsSchema> = {
      id: lyrics.lyrics_id,
      adamid,
      trackKey: String(lyrics.track_key),
      providername: lyrics.provider,
      footer: lyrics.footer,
      demo: true,
      syncedtext: lyrics.synced,
    };
    return json(c, body, cachePolicy.catalogue);
  });
}
