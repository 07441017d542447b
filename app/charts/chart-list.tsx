import { Cover } from "#app/catalogue/track-list.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { ChartRow } from "./chart-songs.server";

/**
 * A chart's songs: rank, cover, title (to the track page), artist (to the artist page), new-release
 * badge. Up to 50 rows a page, so markup is kept lean (charts.css styles the row's parts by place).
 */
export function ChartList({
  rows,
  label,
  start = 1,
  covers = true,
}: {
  rows: readonly ChartRow[];
  label: string;
  /** The first row's rank (a later page of the chart). */
  start?: number;
  /** Without: rank and text only (the AMP form, whose 40 KB cannot hold 50 covers). */
  covers?: boolean;
}) {
  const { t } = useTranslation("common");
  const { Link } = usePrimitives();
  return (
    <ol
      className={covers ? "track-list chart-list" : "track-list chart-list chart-list--text"}
      aria-label={label}
      start={start === 1 ? undefined : start}
    >
      {rows.map((row) => (
        <li className="track-row chart-row" key={row.key}>
          <span className="track-row__rank">{row.rankLabel}</span>
          {covers ? <Cover image={row.cover} /> : null}
          <span>
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
