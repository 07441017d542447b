import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Cover } from "~/components/track-list";
import type { ChartRow } from "~/data/charts.server";

/** A chart's songs: rank, cover, title (to the track page), artist (to the artist page), new-release badge. */
export function ChartList({ rows, label }: { rows: ChartRow[]; label: string }) {
  const { t } = useTranslation("common");
  return (
    <ol className="track-list chart-list" aria-label={label}>
      {rows.map((row) => (
        <li className="track-row chart-row" key={row.key}>
          <span className="track-row__rank">{row.rankLabel}</span>
          <Cover image={row.cover} size={56} />
          <span className="chart-row__text">
            <Link className="track-row__title" to={row.href}>
              {row.title}
            </Link>
            <span className="track-row__artist">
              {row.artistHref ? (
                <Link className="chart-row__artist" to={row.artistHref}>
                  {row.artist}
                </Link>
              ) : (
                row.artist
              )}
              {row.isNewRelease ? <span className="badge">{t("newRelease")}</span> : null}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}
