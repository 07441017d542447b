import { useTranslation } from "react-i18next";
import { usePrimitives } from "~/components/primitives";
import { Cover } from "~/components/track-list";
import type { ChartRow } from "~/data/charts.server";

/** A chart's songs: rank, cover, title (to the track page), artist (to the artist page), new-release badge. */
export function ChartList({
  rows,
  label,
  start = 1,
}: {
  rows: readonly ChartRow[];
  label: string;
  /** The first row's rank (a later page of the chart). */
  start?: number;
}) {
  const { t } = useTranslation("common");
  const { Link } = usePrimitives();
  return (
    <ol className="track-list chart-list" aria-label={label} start={start === 1 ? undefined : start}>
      {rows.map((row) => (
        <li className="track-row chart-row" key={row.key}>
          <span className="track-row__rank">{row.rankLabel}</span>
          <Cover image={row.cover} />
          <span className="chart-row__text">
            <Link className="track-row__title" href={row.href}>
              {row.title}
            </Link>
            <span className="track-row__artist">
              <Link className="chart-row__artist" href={row.artistHref}>
                {row.artist}
              </Link>
              {row.isNewRelease ? <span className="badge">{t("newRelease")}</span> : null}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}
