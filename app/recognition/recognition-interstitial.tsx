import type { MatchedTrack } from "#app/recognition/browser/session.ts";
import { Overlay } from "#app/ui/overlay.tsx";

/**
 * Spec 002 §2 /track/webrec/interstitial: a takeover shown after a match when the visitor is
 * already on that track page, on the track's background colour (dark text when it is light).
 * "Follow the lyrics" reopens the page with the new match's position; Escape or Close leave it.
 */
export function RecognitionInterstitial(props: {
  /** Spec 002 §2 inputs: track title, artist, background colour, light flag. */
  track: Pick<MatchedTrack, "trackId" | "title" | "artist" | "bkgcolor" | "bkglight">;
  labels: { label: string; follow: string; close: string };
  /** Without a match to follow (the address visited directly), only Close. */
  onFollow?: () => void;
  onClose: () => void;
}) {
  const { track, labels, onClose } = props;
  // Colours derived from the track's data (the origin darkens bkgcolor for white text when needed).
  const background = track.bkgcolor ? `#${track.bkgcolor}` : undefined;
  const light = track.bkglight === true;
  return (
    <Overlay
      placement="takeover"
      className="recognition-interstitial"
      labelledBy="recognition-interstitial-title"
      style={background ? { background, color: light ? "#10131c" : "#ffffff" } : undefined}
      onClose={onClose}
    >
      <div className="recognition-interstitial__body" data-light={light ? "true" : undefined}>
        <p className="recognition-interstitial__label">{labels.label}</p>
        <h2 id="recognition-interstitial-title">{track.title ?? track.trackId}</h2>
        {track.artist ? <p className="recognition-interstitial__artist">{track.artist}</p> : null}
        <div className="recognition-interstitial__actions">
          {props.onFollow ? (
            // biome-ignore lint/a11y/noAutofocus: the takeover's first action takes the focus as it opens.
            <button type="button" className="button" onClick={props.onFollow} autoFocus>
              {labels.follow}
            </button>
          ) : null}
          <button
            type="button"
            className={props.onFollow ? "button button--quiet" : "button"}
            onClick={onClose}
            // biome-ignore lint/a11y/noAutofocus: the takeover's first action takes the focus as it opens.
            autoFocus={!props.onFollow}
          >
            {labels.close}
          </button>
        </div>
      </div>
    </Overlay>
  );
}
