import type { Translate } from "#app/shell/strings.ts";
import { DemoBadge } from "#app/ui/demo-badge.tsx";
import type { TrackPage } from "./track.server";

/** The track's facts in its heading: album, release date, genre and duration. Shared with AMP. */
export function TrackFacts({ details, t }: { details: TrackPage["details"]; t: Translate }) {
  return (
    <dl className="track-facts" aria-label={t("track:details")}>
      {details.album ? (
        <div>
          <dt>{t("track:album")}</dt>
          <dd>{details.album}</dd>
        </div>
      ) : null}
      <div>
        <dt>{t("track:released")}</dt>
        <dd>
          <time dateTime={details.releaseDate}>{details.released}</time>
        </dd>
      </div>
      <div>
        <dt>{t("track:genre")}</dt>
        <dd>{details.genre}</dd>
      </div>
      <div>
        <dt>{t("track:duration")}</dt>
        <dd>
          <time dateTime={details.durationIso}>{details.duration}</time>
        </dd>
      </div>
    </dl>
  );
}

/**
 * How many times the track was identified, labelled as demo data when it includes the catalogue's
 * seeded count (decision 032). Shared with AMP.
 */
export function TrackCount({ count, t }: { count: NonNullable<TrackPage["count"]>; t: Translate }) {
  return (
    <p className="track-hero__count" data-count={count.total}>
      {t("track:identified", { count: count.total, formatted: count.formatted })}
      {count.demo ? (
        <>
          {" "}
          <DemoBadge>{t("common:demoData")}</DemoBadge>
        </>
      ) : null}
    </p>
  );
}
