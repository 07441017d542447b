import { type RefObject, useEffect, useRef, useState } from "react";
import { useTranslation } from "#app/shell/strings.ts";
import { DemoBadge } from "#app/ui/demo-badge.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import {
  lyricsLineId,
  lyricsLineIndex,
  msUntilNextChange,
  type SyncedLyricsState,
  syncedLyricsState,
} from "./synced-lyrics";
import type { TrackLyrics } from "./track.server";

/** The clock is read again at least this often, so a sleeping tab or a changed clock catches up. */
const longestWaitMs = 1000;

/**
 * Synced lyrics while the heard song can be followed (spec 001 §4), the plain text otherwise.
 * The first render uses the loader's state (no hydration mismatch); then the browser's clock
 * moves the highlight line by line and hides the synced view when the song is over.
 */
function useSyncedState(synced: TrackLyrics["synced"]): SyncedLyricsState {
  const [state, setState] = useState<SyncedLyricsState>(synced?.initial ?? { shown: false, lineIndex: -1 });
  useEffect(() => {
    if (!synced) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const now = Date.now();
      setState(syncedLyricsState(synced.sync, synced.lines, now));
      const wait = msUntilNextChange(synced.sync, synced.lines, now);
      if (wait !== undefined) timer = setTimeout(tick, Math.min(wait, longestWaitMs));
    };
    tick();
    return () => clearTimeout(timer);
  }, [synced]);
  return state;
}

/** Keeps the sung line in the middle of the lyrics box, gently unless the visitor asks for less motion. */
function useCenteredLine(list: RefObject<HTMLOListElement | null>, lineIndex: number) {
  useEffect(() => {
    const box = list.current;
    const line = lineIndex >= 0 ? box?.children.item(lineIndex) : undefined;
    if (!box || !(line instanceof HTMLElement)) return;
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    box.scrollTo({
      top: line.offsetTop - box.offsetTop - (box.clientHeight - line.clientHeight) / 2,
      behavior: reduce ? "auto" : "smooth",
    });
  }, [list, lineIndex]);
}

/**
 * The line a search result opened the page at (#lyrics-line-N), marked and brought into view.
 * `:target` marks it on a page load, before any script; but a client-side navigation (the search
 * page's link, history.pushState) never updates `:target`, so once mounted the page marks the line
 * itself. Read from the address in an effect: the server never sees the fragment (the first render
 * must match its HTML), and the AMP page, drawn by the same component, has no router.
 */
function useFoundLine(): number {
  const [found, setFound] = useState(-1);
  useEffect(() => {
    const index = lyricsLineIndex(window.location.hash);
    setFound(index);
    if (index < 0) return;
    // After the render that unfolds the lyrics (their fold opens for a found line).
    requestAnimationFrame(() =>
      document.getElementById(lyricsLineId(index))?.scrollIntoView({ block: "start" }),
    );
  }, []);
  return found;
}

/** Lyrics longer than this are folded to their first lines (spec 002 §2 show more / less). */
export const foldedLyricsLines = 4;

export function Lyrics({ lyrics }: { lyrics: TrackLyrics }) {
  const { t } = useTranslation("track");
  const { ShowMore } = usePrimitives();
  const state = useSyncedState(lyrics.synced);
  const list = useRef<HTMLOListElement>(null);
  const found = useFoundLine();
  const showSynced = lyrics.synced !== undefined && state.shown;
  useCenteredLine(list, showSynced ? state.lineIndex : -1);

  return (
    <section className="section track-lyrics" aria-labelledby="track-lyrics-title">
      <div className="section__head">
        <h2 id="track-lyrics-title">{t("lyrics")}</h2>
        {lyrics.demo ? <DemoBadge>{t("demoLyrics")}</DemoBadge> : null}
      </div>
      <div className="card">
        {showSynced && lyrics.synced ? (
          <>
            <p className="track-lyrics__note">{t("syncedLyrics")}</p>
            <ol className="synced-lyrics" ref={list} aria-label={t("lyrics")}>
              {lyrics.synced.lines.map((line, index) => (
                <li
                  key={`${line.offset}:${line.text}`}
                  className={[
                    "synced-lyrics__line",
                    index === state.lineIndex ? "is-current" : index < state.lineIndex ? "is-past" : "",
                    index === found ? "is-found" : "",
                  ]
                    .filter(Boolean)
                    .join(" ")}
                  aria-current={index === state.lineIndex ? "true" : undefined}
                  id={lyricsLineId(index)}
                >
                  {line.text}
                </li>
              ))}
            </ol>
          </>
        ) : (
          <ShowMore long={lyrics.lines.length > foldedLyricsLines} fold="text" lines={foldedLyricsLines}>
            <p className="track-lyrics__text">
              {lyrics.lines.map((line, index) => (
                <span
                  // Lines repeat (choruses); their place is their identity.
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id of their own
                  key={index}
                  className={index === found ? "track-lyrics__line is-found" : "track-lyrics__line"}
                  id={lyricsLineId(index)}
                >
                  {line}
                </span>
              ))}
            </p>
          </ShowMore>
        )}
        <footer className="track-lyrics__footer">
          <p>{lyrics.footer}</p>
          <p>{t("lyricsProvider", { provider: lyrics.provider })}</p>
        </footer>
      </div>
    </section>
  );
}
