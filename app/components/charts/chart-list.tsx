import { usePrimitives } from "~/components/primitives";
import { Cover } from "~/components/track-list";
import type { ChartRow } from "~/data/charts.server";
import { useTranslation } from "~/strings";

/** A chart's songs: rank, cover, title (to the track page), artist (to the artist page), new-release badge. */
export function ChartList({ rows, label }: { rows: readonly ChartRow[]; label: string }) {
  const { t } = useTranslation("common");
  const { Link } = usePrimitives();
  return (
    <ol className="track-list chart-list" aria-label={label}>
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
