import { useEffect, useRef, useState } from "react";
import { useRuntime } from "#app/shell/runtime.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import {
  connectVideoPlayer,
  type ProgressPoint,
  type VideoPlayer,
  type VideoState,
} from "#app/track/browser/video-player.ts";
import { Overlay } from "#app/ui/overlay.tsx";
import type { TrackVideo } from "./track.server";

export type VideoOverlayProps = { video: TrackVideo; title: string; trackKey: string; onClose: () => void };

/** Spec 002 §4 "Video": progress is reported once per play at each point, as a user event. */
export function progressBeaconId(point: ProgressPoint): string {
  return `video.progress.${point}`;
}

/** Spec 001 §8: the video failure's error statistic. */
export const videoErrorBeaconId = "video.error";

/**
 * The video player in an overlay (loaded on demand): the video site's embed page in an iframe,
 * started as soon as it is ready (after the offset's delay), with its state said in a live region.
 * Escape, Close or a click outside closes it and the focus goes back to the play button.
 */
export default function VideoOverlay({ video, title, trackKey, onClose }: VideoOverlayProps) {
  const { t } = useTranslation("track");
  const runtime = useRuntime();
  const frame = useRef<HTMLIFrameElement>(null);
  const player = useRef<VideoPlayer>();
  const close = useRef<HTMLButtonElement>(null);
  const [state, setState] = useState<VideoState>("loading");

  // biome-ignore lint/correctness/useExhaustiveDependencies: one player for the life of the overlay.
  useEffect(() => {
    // The dialog (opened by the child's effect, which runs first) would focus the iframe, and a key
    // pressed in the embed page never reaches this page: Escape would not close.
    close.current?.focus();
    const element = frame.current;
    if (!element) return;
    let started = false;
    let failed = false;
    const connected = connectVideoPlayer({
      frame: element,
      window,
      offsetMs: video.offsetMs,
      timers: {
        setTimeout: (run, ms) => window.setTimeout(run, ms),
        clearTimeout: (handle) => window.clearTimeout(handle as number),
        setInterval: (run, ms) => window.setInterval(run, ms),
        clearInterval: (handle) => window.clearInterval(handle as number),
      },
      onState(next) {
        setState(next);
        // Spec 001 §8 "Album, playlist and video failures send an error beacon": the only failure
        // the page sees is the embed reporting an error or no longer answering; it is counted once.
        if (next === "error" && !failed) {
          failed = true;
          void runtime?.beacons.send({
            beaconType: "error",
            beaconId: videoErrorBeaconId,
            trackkey: trackKey,
            errorcode: "dataerror",
            errordesc: "The video stopped answering",
          });
        }
        if (next === "ready" && !started) {
          started = true;
          connected.play();
        }
      },
      onProgress(point) {
        void runtime?.beacons.send({
          beaconType: "userevent",
          beaconId: progressBeaconId(point),
          trackkey: trackKey,
        });
      },
    });
    player.current = connected;
    return () => connected.stop();
  }, []);

  return (
    <Overlay
      placement="modal"
      masked
      className="video-overlay"
      labelledBy="video-overlay-title"
      onClose={onClose}
    >
      <h2 id="video-overlay-title">{t("video.title", { title })}</h2>
      <div className="video-overlay__frame">
        <iframe
          ref={frame}
          src={video.embed}
          title={t("video.title", { title })}
          allow="autoplay; fullscreen"
          width="520"
          height="280"
          data-video-state={state}
        />
      </div>
      <p className="video-overlay__state" role="status">
        {state === "error" ? (
          <>
            {t("video.stopped")} <a href={video.watch}>{t("video.watch", { title })}</a>
          </>
        ) : (
          t(`video.states.${state}`)
        )}
      </p>
      {video.artTrack ? <p className="video-overlay__note">{t("video.artTrackNote", { title })}</p> : null}
      <div className="overlay__actions">
        <button ref={close} type="button" className="button" onClick={onClose}>
          {t("video.close")}
        </button>
      </div>
    </Overlay>
  );
}
