/**
 * Synced lyrics after a web match (spec 001 §2 query parameters, §4 derived track rules): the
 * track page is opened with where the song was when it was heard, and the lyrics follow it from
 * there. Pure: the server decides the first state from the loader's clock, the browser moves on
 * with its own. Reading the parameters (valibot) is the server's, in synced-lyrics.server.ts, so
 * the track page's browser code does not carry valibot.
 *
 * - `startDate`: when the match was heard, epoch ms (or an ISO 8601 date-time).
 * - `offsetInMilliseconds`: where the song was at `startDate`.
 * - `trackLength`: the song's length in ms (the track's own duration when absent).
 * - `timeSkew`: the match's time skew, the relative speed of what was heard against the
 *   recording (0.001 plays 0.1 % fast), as in tagging (app/recognition/browser/tagging.ts).
 */
export type LyricsSync = {
  startDate: number;
  offset: number;
  trackLength: number;
  timeSkew: number;
};

export type SyncedLine = { offset: number; text: string };

/** When the song started playing where it was heard: the match time less the offset. */
export function trackStartOf(sync: LyricsSync): number {
  return sync.startDate - sync.offset;
}

/**
 * Spec 001 §4: "Synced lyrics are shown only while the current time is within track start and
 * track start plus track length, and the offset is between 0 and track length."
 */
export function isSyncedLyricsShown(sync: LyricsSync, now: number): boolean {
  if (sync.trackLength <= 0) return false;
  if (sync.offset < 0 || sync.offset > sync.trackLength) return false;
  const start = trackStartOf(sync);
  return now >= start && now <= start + sync.trackLength;
}

/** Where the heard song is at `now`, ms into the recording, within [0, trackLength]. */
export function songPosition(sync: LyricsSync, now: number): number {
  const position = sync.offset + (now - sync.startDate) * (1 + sync.timeSkew);
  return Math.min(Math.max(position, 0), sync.trackLength);
}

/** The line being sung at `position`: the last one started; -1 before the first. */
export function currentLineIndex(lines: readonly SyncedLine[], position: number): number {
  let current = -1;
  for (const [index, line] of lines.entries()) {
    if (line.offset <= position) current = index;
    else break;
  }
  return current;
}

export type SyncedLyricsState = { shown: boolean; lineIndex: number };

export function syncedLyricsState(
  sync: LyricsSync,
  lines: readonly SyncedLine[],
  now: number,
): SyncedLyricsState {
  if (!isSyncedLyricsShown(sync, now)) return { shown: false, lineIndex: -1 };
  return { shown: true, lineIndex: currentLineIndex(lines, songPosition(sync, now)) };
}

/**
 * Milliseconds from `now` until the state can next change: the next line starts, the window
 * opens, or it closes. Undefined when it never will again.
 */
export function msUntilNextChange(
  sync: LyricsSync,
  lines: readonly SyncedLine[],
  now: number,
): number | undefined {
  if (sync.offset < 0 || sync.offset > sync.trackLength || sync.trackLength <= 0) return undefined;
  const start = trackStartOf(sync);
  const end = start + sync.trackLength;
  if (now < start) return start - now;
  if (now > end) return undefined;
  const position = songPosition(sync, now);
  const next = lines.find((line) => line.offset > position);
  const untilWindowEnd = end - now + 1;
  if (!next) return untilWindowEnd;
  const untilNextLine = Math.ceil((next.offset - position) / (1 + sync.timeSkew));
  return Math.max(1, Math.min(untilNextLine, untilWindowEnd));
}

/** A lyric line's element id on the track page: a search result found by that line opens the page there. */
export function lyricsLineId(index: number): string {
  return `lyrics-line-${index}`;
}

/** The line an address's fragment names (`#lyrics-line-N`, as lyricsLineId writes it), or -1. */
export function lyricsLineIndex(hash: string): number {
  const match = /^#lyrics-line-(\d{1,5})$/.exec(hash);
  return match ? Number(match[1]) : -1;
}
