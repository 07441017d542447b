import { Link } from "@remix-run/react";
import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import type { TrackPage } from "~/data/track.server";
import { PlayButton } from "./playback";
import { TrackCount, TrackFacts } from "./track-facts";

/** Sizes the cover is shown at: 200px on phones, 248px above (spec 002 §9 preload sizes). */
export const coverSizes = "(max-width: 649px) 200px, 248px";

/**
 * The heading band: cover, title, artist, facts, count and the main play button, on the track's
 * own colour (the origin's colour darkened until white text reaches 4.5:1).
 */
export function TrackHero({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  const { t: common } = useTranslation("common");
  const style = page.background ? ({ "--track-bg": page.background } as CSSProperties) : undefined;
  const mainEntry = page.mainIndex === undefined ? undefined : page.playlist[page.mainIndex];
  return (
    <section className="track-hero" style={style} aria-labelledby="track-title">
      <img
        className="track-hero__cover"
        src={page.cover.src}
        srcSet={page.cover.srcSet}
        sizes={coverSizes}
        width={page.cover.width}
        height={page.cover.height}
        alt={t("coverAlt", { title: page.title, artist: page.artist.name })}
      />
      <div className="track-hero__text">
        {page.isNewRelease ? <p className="track-hero__badge">{common("newRelease")}</p> : null}
        <h1 id="track-title" className="track-hero__title">
          {page.title}
        </h1>
        <p className="track-hero__artist">
          {page.artist.href ? <Link to={page.artist.href}>{page.artist.name}</Link> : page.artist.name}
        </p>
        <TrackFacts details={page.details} t={t} />
        {page.count ? <TrackCount count={page.count} t={t} /> : null}
        {mainEntry && page.mainIndex !== undefined ? (
          <PlayButton
            index={page.mainIndex}
            entry={mainEntry}
            withLabel
            className="button button--light play-button play-button--main"
          />
        ) : null}
      </div>
    </section>
  );
}
