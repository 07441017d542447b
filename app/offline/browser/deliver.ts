import type { TrackLookup } from "#app/recognition/browser/match-service.ts";
import { SiteError } from "#rules/errors.ts";
import type { MatchRequestBody, WebrecMatchResponse } from "#rules/schemas/webrec.ts";
import type { HeardAnswer, KeptRecording } from "./kept-recordings";
import type { KeptStore } from "./kept-store";

/**
 * Sends the recordings heard offline (docs/decisions/057-heard-offline.md), from whichever comes
 * first: the service worker's Background Sync, or a page's `online` event or next visit. Each
 * recording is sent under its claim (kept-store.ts), so two senders at once send it once; its
 * answer replaces it in the store, for a page to list and announce.
 */

export type DeliverDeps = {
  store: KeptStore;
  /** POST /services/webrec/match (app/shell/browser/request.ts: a fetch TypeError is a `network` error). */
  match(body: MatchRequestBody): Promise<WebrecMatchResponse>;
  /** The matched track's title and artist (spec 002 §7 track service). */
  lookupTrack(recording: KeptRecording, trackId: string): Promise<TrackLookup>;
  now(): number;
  /** This sender's claim token, new for every run. */
  token: string;
  /** The sender announces the answer itself (the service worker's notification). */
  announces: boolean;
};

export type DeliverOutcome = {
  /** The answers of this run (already in the store, for a page to take). */
  answered: HeardAnswer[];
  /** Recordings left: another sender holds them, or this run stopped at a failure worth retrying. */
  waiting: number;
  /** The run stopped because a request failed for want of network. */
  offline: boolean;
};

/**
 * A failure worth sending again later: no network, a timeout, or an answer that says "later" (429,
 * 5xx: the recognizer busy or down, decision 052). Any other error answer (the signature refused)
 * would be refused again: the recording is answered as unidentified.
 */
function worthRetrying(error: unknown): boolean {
  if (!(error instanceof SiteError)) return true;
  if (error.type === "network" || error.type === "timeout" || error.type === "abort") return true;
  const status = error.status;
  return error.type === "serviceerror" && (status === undefined || status === 429 || status >= 500);
}

export async function deliverKept(deps: DeliverDeps): Promise<DeliverOutcome> {
  const recordings = await deps.store.list(deps.now());
  const answered: HeardAnswer[] = [];
  for (const [index, recording] of recordings.entries()) {
    const mine = await deps.store.claim(recording.id, deps.token, deps.now());
    if (!mine) continue;
    let answer: WebrecMatchResponse | undefined;
    try {
      answer = await deps.match({
        data: mine.data,
        sessionId: mine.id,
        lang: mine.lang,
        country: mine.country,
      });
    } catch (error) {
      if (worthRetrying(error)) {
        await deps.store.release(mine.id, deps.token);
        const offline = error instanceof SiteError && error.type === "network";
        return { answered, waiting: recordings.length - index, offline };
      }
    }
    const match = answer?.matches[0];
    const common = {
      id: mine.id,
      lang: mine.lang,
      heardAt: mine.heardAt,
      answeredAt: Math.round(deps.now()),
      announced: deps.announces,
      texts: mine.texts,
    };
    let heard: HeardAnswer = { ...common, outcome: "unidentified" };
    if (match) {
      // The title makes the list and the announcement readable; the answer stands without it.
      const track = await deps.lookupTrack(mine, match.trackId).catch(() => undefined);
      heard = {
        ...common,
        outcome: "matched",
        trackId: match.trackId,
        weburl: match.weburl,
        ...(track ? { title: track.title, artist: track.subtitle } : {}),
      };
    }
    if (await deps.store.complete(mine.id, deps.token, heard)) answered.push(heard);
  }
  const left = await deps.store.list(deps.now());
  return { answered, waiting: left.length, offline: false };
}
