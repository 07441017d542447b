import { type ComponentType, useRef, useState } from "react";
import { useRuntime } from "#app/shell/runtime.tsx";
import { platformOf } from "#rules/user-agent.ts";
import type { TrackVideo } from "./track.server";
import type { VideoOverlayProps } from "./video-overlay";

/** Spec 002 §2: a phone (narrower than the tablet layout, or a phone's browser) plays on the video site. */
export function playsOnVideoSite(viewportWidth: number, userAgent: string, maxTouchPoints: number): boolean {
  return viewportWidth < 650 || platformOf(userAgent, maxTouchPoints) !== "web";
}

/** The embed address with autoplay (spec 002 §2 "a popup for a video-site address on mobile"). */
export function embedWithAutoplay(embed: string): string {
  return `${embed}?autoplay=1`;
}

/**
 * The video section's play button (React pages only; AMP and a page without script keep the
 * link to the watch page it replaces). On a phone it opens the embed address with autoplay; else
 * the player's code loads through the importer (§4) and plays the embed in an overlay.
 */
export function VideoPlay({
  video,
  title,
  trackKey,
  label,
}: {
  video: TrackVideo;
  title: string;
  trackKey: string;
  label: string;
}) {
  const runtime = useRuntime();
  const button = useRef<HTMLButtonElement>(null);
  const [overlay, setOverlay] = useState<ComponentType<VideoOverlayProps>>();
  const [open, setOpen] = useState(false);

  const play = () => {
    if (playsOnVideoSite(window.innerWidth, navigator.userAgent, navigator.maxTouchPoints)) {
      window.location.assign(embedWithAutoplay(video.embed));
      return;
    }
    if (!runtime) return;
    // A failed load has told the visitor through the info bar; the next press tries again.
    runtime
      .importOnDemand("video", () => import("./video-overlay"))
      .then(
        (loaded) => {
          setOverlay(() => loaded.default);
          setOpen(true);
        },
        () => {},
      );
  };

  const Overlay = overlay;
  return (
    <>
      <button
        ref={button}
        type="button"
        className="play-button video-preview__play"
        onClick={play}
        aria-label={label}
      >
        <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
          <path d="M8 5v14l11-7z" fill="currentColor" />
        </svg>
      </button>
      {open && Overlay ? (
        <Overlay video={video} title={title} trackKey={trackKey} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}
