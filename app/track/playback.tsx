import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useRuntime } from "#app/shell/runtime.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import type { PlaylistEntry } from "#app/shell/view.ts";
import type { HandOver, Player } from "#app/track/browser/playback.ts";
import { isActive, type PlaybackState } from "#app/track/browser/playback-state.ts";
import { type PlayControlProps, type Primitives, reactPrimitives } from "#app/ui/primitives.tsx";
import { PlayIcon } from "./play-icon";

type Playback = {
  entries: readonly PlaylistEntry[];
  state: PlaybackState;
  /** False until the browser runtime (and its importer) is there: buttons are still links. */
  ready: boolean;
  toggle(index: number): void;
  next(): void;
  previous(): void;
};

const PlaybackContext = createContext<Playback | undefined>(undefined);

const idle: PlaybackState = { index: undefined, status: "idle" };

/**
 * The page's one player over its playlist. Its code (app/track/browser/playback.ts) loads through the
 * importer at the first press (spec 002 §4 "Scripts loaded on demand: menu, playaudio, …"), but that
 * press itself makes the page's one audio element and calls `play()` on it, synchronously:
 * Safari starts sound only inside the gesture's task, and an element once played there may be
 * played later without one. The player takes that element over when it arrives. Nothing loads
 * until the visitor asks. Mount it with `key` set to the track, so another track's page starts a
 * new playlist.
 */
export function PlaybackProvider({
  entries,
  children,
}: {
  entries: readonly PlaylistEntry[];
  children: ReactNode;
}) {
  const runtime = useRuntime();
  const [state, setState] = useState<PlaybackState>(idle);
  const audio = useRef<HTMLAudioElement | undefined>(undefined);
  const player = useRef<Player | undefined>(undefined);
  const early = useRef<HandOver>({ state: idle });

  useEffect(
    () => () => {
      player.current?.destroy();
      audio.current?.pause();
    },
    [],
  );

  const audioElement = useCallback((): HTMLAudioElement => {
    if (!audio.current) {
      audio.current = new Audio();
      audio.current.preload = "none";
    }
    return audio.current;
  }, []);

  const withPlayer = useCallback((): Promise<Player> => {
    if (player.current) return Promise.resolve(player.current);
    if (!runtime) return Promise.reject(new Error("the runtime has not started"));
    return runtime
      .importOnDemand("playback", () => import("#app/track/browser/playback.ts"))
      .then(
        ({ createPlayer }) => {
          player.current ??= createPlayer(entries, audioElement(), setState, early.current);
          return player.current;
        },
        (error: unknown) => {
          // The info bar has said why; the sound the press started stops, and the next press tries again.
          audio.current?.pause();
          early.current = { state: idle };
          setState(idle);
          throw error;
        },
      );
  }, [runtime, entries, audioElement]);

  const toggle = useCallback(
    (index: number) => {
      const entry = entries[index];
      if (!entry) return;
      const loaded = player.current;
      const active = isActive(loaded?.state ?? early.current.state, index);
      if (loaded) return active ? loaded.pause() : loaded.play(index);
      // Before the player has arrived, the press itself plays (see above).
      const element = audioElement();
      if (active) {
        element.pause();
        early.current = { state: { index, status: "paused" } };
      } else {
        if (early.current.state.index !== index) element.src = entry.src;
        const started = element.play();
        // The player follows this promise when it arrives; until then nobody else waits on it.
        started.catch(() => {});
        early.current = { state: { index, status: "loading" }, started };
      }
      setState(early.current.state);
      withPlayer().catch(() => {});
    },
    [entries, audioElement, withPlayer],
  );
  // The first press went through toggle, which unlocked the element: these may wait for the player.
  const next = useCallback(
    () =>
      void withPlayer().then(
        (loaded) => loaded.next(),
        () => {},
      ),
    [withPlayer],
  );
  const previous = useCallback(
    () =>
      void withPlayer().then(
        (loaded) => loaded.previous(),
        () => {},
      ),
    [withPlayer],
  );

  useMediaSession(entries, state, toggle, next, previous);

  return (
    <PlaybackContext.Provider
      value={{ entries, state, ready: runtime !== undefined, toggle, next, previous }}
    >
      {children}
      <NowPlaying />
    </PlaybackContext.Provider>
  );
}

function usePlayback(): Playback {
  const playback = useContext(PlaybackContext);
  if (!playback) throw new Error("PlaybackProvider is missing");
  return playback;
}

/** The operating system's media controls (lock screen, keyboard media keys) drive the same playlist. */
function useMediaSession(
  entries: readonly PlaylistEntry[],
  state: PlaybackState,
  toggle: (index: number) => void,
  next: () => void,
  previous: () => void,
) {
  const entry = state.index === undefined ? undefined : entries[state.index];
  useEffect(() => {
    if (!entry || state.index === undefined || !("mediaSession" in navigator)) return;
    const index = state.index;
    const session = navigator.mediaSession;
    session.metadata = new MediaMetadata({ title: entry.title, artist: entry.artist });
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ["play", () => toggle(index)],
      ["pause", () => toggle(index)],
      ["nexttrack", next],
      ["previoustrack", previous],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not support.
      }
    }
  }, [entry, state.index, toggle, next, previous]);
}

/**
 * Plays or pauses one track of the playlist. Without JavaScript (and until the runtime starts) it is a
 * link to the preview file, which the browser plays by itself.
 */
export function PlayButton({ index, entry, withLabel = false, className = "play-button" }: PlayControlProps) {
  const { t } = useTranslation("track");
  const playback = usePlayback();
  const active = isActive(playback.state, index);
  // A labelled control (the track page's hero, beside the song's title) is named by the words it
  // shows (WCAG 2.5.3, label in name); an icon alone is named with the song's title.
  const label = withLabel
    ? undefined
    : active
      ? t("pause", { title: entry.title })
      : t("play", { title: entry.title });
  const text = active ? t("pausePreview") : t("playPreview");
  if (!playback.ready) {
    return (
      <a
        className={className}
        href={entry.src}
        type="audio/ogg"
        aria-label={withLabel ? undefined : t("listen", { title: entry.title })}
      >
        <PlayIcon playing={false} />
        {withLabel ? <span>{t("playPreview")}</span> : null}
      </a>
    );
  }
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      data-state={active ? "playing" : "idle"}
      onClick={() => playback.toggle(index)}
    >
      <PlayIcon playing={active} />
      {withLabel ? <span>{text}</span> : null}
    </button>
  );
}

/** What plays, for everyone: a small bar with previous / play-pause / next, and a live status. */
function NowPlaying() {
  const { t } = useTranslation("track");
  const { entries, state, toggle, next, previous } = usePlayback();
  const entry = state.index === undefined ? undefined : entries[state.index];
  const status =
    entry === undefined
      ? ""
      : state.status === "error"
        ? t("playbackError", { title: entry.title })
        : state.status === "playing"
          ? t("nowPlaying", { title: entry.title, artist: entry.artist })
          : "";
  return (
    <>
      <p className="visually-hidden" aria-live="polite">
        {status}
      </p>
      {entry && state.index !== undefined ? (
        <section className="now-playing" aria-label={t("player")}>
          <p className="now-playing__text">
            <span className="now-playing__title">{entry.title}</span>
            <span className="now-playing__artist">
              {state.status === "error" ? t("playbackError", { title: entry.title }) : entry.artist}
            </span>
          </p>
          {entries.length > 1 ? (
            <button
              type="button"
              className="now-playing__button"
              onClick={previous}
              aria-label={t("previous")}
            >
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path d="M6 5h2v14H6zM20 5v14L9 12z" fill="currentColor" />
              </svg>
            </button>
          ) : null}
          <button
            type="button"
            className="now-playing__button now-playing__button--main"
            onClick={() => state.index !== undefined && toggle(state.index)}
            aria-label={
              isActive(state, state.index)
                ? t("pause", { title: entry.title })
                : t("play", { title: entry.title })
            }
          >
            <PlayIcon playing={isActive(state, state.index)} />
          </button>
          {entries.length > 1 ? (
            <button type="button" className="now-playing__button" onClick={next} aria-label={t("next")}>
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path d="M16 5h2v14h-2zM4 5v14l11-7z" fill="currentColor" />
              </svg>
            </button>
          ) : null}
        </section>
      ) : null}
    </>
  );
}

/** The primitives of a page that plays its previews: its play controls are its player's buttons. */
export const playbackPrimitives: Primitives = { ...reactPrimitives, PlayControl: PlayButton };
