import type { CSSProperties, ReactNode } from "react";
import { useTranslation } from "#app/shell/strings.ts";
import { safeColour } from "#app/shell/view.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { TrackPage } from "./track.server";
import { TrackCount, TrackFacts } from "./track-facts";

/** Sizes the cover is shown at: 200px on phones, 248px above (spec 002 §9 preload sizes). */
export const coverSizes = "(max-width: 649px) 200px, 248px";
/** The cover's box (`.track-hero__cover`) at its largest. */
const coverSize = 248;

/**
 * The heading band: cover, title, artist, facts, count and the main play button, on the track's
 * own colour (the origin's colour darkened until white text reaches 4.5:1).
 */
export function TrackHero({ page, actions }: { page: TrackPage; actions?: ReactNode }) {
  const { t } = useTranslation("track");
  const { t: common } = useTranslation("common");
  const { Link, Image, PlayControl } = usePrimitives();
  const background = safeColour(page.background);
  const style = background ? ({ "--track-bg": background } as CSSProperties) : undefined;
  const mainEntry = page.mainIndex === undefined ? undefined : page.playlist[page.mainIndex];
  return (
    <section className="track-hero" style={style} aria-labelledby="track-title">
      <Image
        className="track-hero__cover"
        image={page.cover}
        width={coverSize}
        height={coverSize}
        layout="responsive"
        sizes={coverSizes}
        alt={t("coverAlt", { title: page.title, artist: page.artist.name })}
        eager
        ownSize
      />
      <div className="track-hero__text">
        {page.isNewRelease ? <p className="track-hero__badge">{common("newRelease")}</p> : null}
        <h1 id="track-title" className="track-hero__title">
          {page.title}
        </h1>
        <p className="track-hero__artist">
          <Link href={page.artist.href}>{page.artist.name}</Link>
        </p>
        <TrackFacts details={page.details} t={t} />
        {page.count ? <TrackCount count={page.count} t={t} /> : null}
        {(mainEntry && page.mainIndex !== undefined) || actions ? (
          // One row that wraps: the buttons share a line, or stack aligned, never offset.
          <div className="track-hero__actions">
            {mainEntry && page.mainIndex !== undefined ? (
              <PlayControl
                index={page.mainIndex}
                entry={mainEntry}
                href={page.path}
                withLabel
                className="button button--light play-button play-button--main"
              />
            ) : null}
            {actions}
          </div>
        ) : null}
      </div>
    </section>
  );
}
