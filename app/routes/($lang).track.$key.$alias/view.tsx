import type { ReactNode } from "react";
import { Lyrics } from "#app/track/lyrics.tsx";
import type { TrackPage } from "#app/track/track.server.ts";
import { TrackHero } from "#app/track/track-hero.tsx";
import {
  ArtistSection,
  Credits,
  RelatedTracks,
  ShareLinks,
  StoreLinks,
  VideoSection,
} from "#app/track/track-sections.tsx";

/**
 * The track page: heading, where to listen, sharing, lyrics, video, related songs, the artist,
 * credits. `connection` (the streaming-service connection), `listen` (the recognition button) and
 * `shareMenu` work only in the browser: the React route passes them; AMP has none.
 */
export function TrackView({
  page,
  connection,
  listen,
  shareMenu,
  videoPlay,
}: {
  page: TrackPage;
  connection?: ReactNode;
  listen?: ReactNode;
  /** The hero's share menu beside the play control (it needs the page's script). */
  shareMenu?: ReactNode;
  /** The video section's play button (the player needs the page's script). */
  videoPlay?: ReactNode;
}) {
  return (
    <article className="track-page" data-track-view="">
      <TrackHero page={page} actions={shareMenu} />
      <div className="track-columns">
        <div className="track-columns__listen">
          <StoreLinks page={page} />
          {/* One share control a person meets (decision 025, Menu): the hero's menu where the page
              has one, and the plain links for AMP and as the no-script fallback. In <noscript>,
              not hidden at hydration: with scripting on the browser builds nothing inside, so no
              eye, screen reader or find-in-page meets a second "Share this song", even before
              the script has run, and nothing moves when it has. */}
          {shareMenu ? (
            <noscript>
              <ShareLinks page={page} />
            </noscript>
          ) : (
            <ShareLinks page={page} />
          )}
          {connection}
          {listen}
        </div>
        <div className="track-columns__main">
          {page.lyrics ? <Lyrics lyrics={page.lyrics} /> : null}
          <VideoSection page={page} play={videoPlay} />
          <RelatedTracks page={page} />
        </div>
        <div className="track-columns__artist">
          <ArtistSection page={page} />
        </div>
      </div>
      <Credits page={page} />
    </article>
  );
}
