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
 * `heroActions` work only in the browser: the React route passes them; AMP has none.
 */
export function TrackView({
  page,
  connection,
  listen,
  heroActions,
  videoPlay,
}: {
  page: TrackPage;
  connection?: ReactNode;
  listen?: ReactNode;
  /** Buttons beside the play control that need the page's script (the share menu). */
  heroActions?: ReactNode;
  /** The video section's play button (the player needs the page's script). */
  videoPlay?: ReactNode;
}) {
  return (
    <article className="track-page" data-track-view="">
      <TrackHero page={page} actions={heroActions} />
      <div className="track-columns">
        <div className="track-columns__listen">
          <StoreLinks page={page} />
          <ShareLinks page={page} />
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
