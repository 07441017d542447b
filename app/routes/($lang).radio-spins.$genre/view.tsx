import { TrackList } from "#app/catalogue/track-list.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import type { TrackSummary } from "#app/shell/view.ts";
import { DemoBadge } from "#app/ui/demo-badge.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";

/** A genre's radio airplay chart: the week, the tracks with their plays, the other genres. */
export function RadioSpinsView({
  page,
}: {
  page: {
    title: string;
    week: string;
    tracks: readonly TrackSummary[];
    spins: readonly string[];
    genres: readonly { name: string; href: string; current: boolean }[];
    chartsHref: string;
  };
}) {
  const { t } = useTranslation("radio");
  const { t: common } = useTranslation("common");
  const { Link } = usePrimitives();
  return (
    <div className="charts-landing">
      <header className="chart-head">
        <h1 id="radio-title">{page.title}</h1>
        <DemoBadge>{common("demoData")}</DemoBadge>
        <p className="muted">{t("intro", { week: page.week })}</p>
      </header>
      <div className="chart-layout">
        <div className="chart-layout__main">
          {page.tracks.length > 0 ? (
            <TrackList tracks={page.tracks} notes={page.spins} label={page.title} />
          ) : (
            <p>{t("empty")}</p>
          )}
        </div>
        <nav className="chart-layout__side" aria-labelledby="radio-genres">
          <h2 id="radio-genres">{t("genres")}</h2>
          <ul className="chart-links">
            {page.genres.map((genre) => (
              <li key={genre.href}>
                <Link href={genre.href} current={genre.current}>
                  {genre.name}
                </Link>
              </li>
            ))}
          </ul>
          <p>
            <Link href={page.chartsHref}>{t("allCharts")}</Link>
          </p>
        </nav>
      </div>
    </div>
  );
}
