import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { isAdamIdRouteOn } from "#app/artist/artist.server.ts";
import { featureOptionsOf } from "#app/shell/features.server.ts";
import { chartDocumentCacheControl } from "#rules/chart-schedule.ts";
import { csvContentType, toCsv } from "#rules/csv.ts";
import { siteOriginOf } from "#rules/env.ts";
import { SiteError, statusOfError } from "#rules/errors.ts";
import { isLanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import {
  type ChartRoute,
  chartRouteOf,
  notFound,
  type ResolvedChart,
  redirectChartsPrefix,
} from "./chart-address.server";
import { chartRowsOf, chartTexts, loadChart } from "./chart-songs.server";

type Context = Pick<AppLoadContext, "edge" | "services">;

/** A whole chart as a file (decision 012): CSV or JSON, and the loader of the download routes. */

export const chartDownloadFormats = {
  csv: csvContentType,
  json: "application/json; charset=utf-8",
} as const;
export type ChartDownloadFormat = keyof typeof chartDownloadFormats;

/** The file name a download is saved under: ASCII only, from the chart's canonical path. */
export function chartFileName(chart: Pick<ResolvedChart, "path">, format: ChartDownloadFormat): string {
  const stem = chart.path
    .split("/")
    .filter((segment) => segment !== "")
    .join("-")
    .replace(/[^a-z0-9-]/gi, "")
    .toLowerCase();
  return `tunewave-${stem}.${format}`;
}

/**
 * The download of a whole chart (decision 012): every row with absolute links, as
 * CSV (one header row) or JSON (the chart's description and its tracks).
 */
export async function chartDownload(
  context: Context,
  route: ChartRoute,
  format: ChartDownloadFormat,
  options: { origin: string; adamIdRoute: boolean },
  now: Date,
): Promise<Response> {
  const { edge } = context;
  const { chart, songs, computedAt } = await loadChart(context, { ...route, include: undefined });
  const { title, description } = chartTexts(chart, edge.lang);
  const rows = chartRowsOf(
    songs,
    { lang: edge.lang, locale: edge.locale, adamIdRoute: options.adamIdRoute },
    now,
  ).map((row, index) => ({
    ...row,
    rank: index + 1,
    album: songs[index]?.attributes.albumName ?? "",
    releaseDate: songs[index]?.attributes.releaseDate ?? "",
  }));
  const absolute = (path: string | undefined) =>
    path === undefined ? "" : new URL(path, options.origin).href;
  const body =
    format === "csv"
      ? toCsv([
          ["rank", "title", "artist", "album", "release_date", "new_release", "track_url", "artist_url"],
          ...rows.map((row) => [
            row.rank,
            row.title,
            row.artist,
            row.album,
            row.releaseDate,
            row.isNewRelease,
            absolute(row.href),
            absolute(row.artistHref),
          ]),
        ])
      : `${JSON.stringify(
          {
            chart: {
              type: chart.type,
              title,
              description,
              country: chart.countryCode,
              city: chart.city?.name ?? null,
              genre: chart.genre?.name ?? null,
              size: chart.size,
              url: absolute(localizedPath(edge.lang, chart.path)),
            },
            generated: now.toISOString(),
            tracks: rows.map((row) => ({
              rank: row.rank,
              key: row.key,
              title: row.title,
              artist: row.artist,
              album: row.album,
              releaseDate: row.releaseDate,
              isNewRelease: row.isNewRelease,
              url: absolute(row.href),
              artistUrl: row.artistHref === undefined ? null : absolute(row.artistHref),
              cover: row.cover ? absolute(row.cover.src) : null,
            })),
          },
          null,
          2,
        )}\n`;
  return new Response(body, {
    headers: {
      "Content-Type": chartDownloadFormats[format],
      "Content-Disposition": `attachment; filename="${chartFileName(chart, format)}"`,
      // The file holds the chart's order: kept until the next recompute is due (decision 032).
      "Cache-Control":
        computedAt === undefined
          ? "public, max-age=300"
          : `public, ${chartDocumentCacheControl(Date.parse(computedAt), now.getTime())}`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * The loader of a chart's download route (`…/download.csv`, `…/download.json`). A file answer has
 * no page to show an error on: failures answer with their status and a plain-text message.
 */
export function chartDownloadLoader(format: ChartDownloadFormat) {
  return async function loader({ params, context, request }: LoaderFunctionArgs): Promise<Response> {
    redirectChartsPrefix(params, request);
    try {
      if (params.lang !== undefined && !isLanguageKey(params.lang))
        throw notFound(`no page at /${params.lang}`);
      const route = chartRouteOf(context, params);
      const adamIdRoute = await isAdamIdRouteOn(context, featureOptionsOf(context, request));
      const origin = siteOriginOf(context.config);
      return await chartDownload(context, route, format, { origin, adamIdRoute }, new Date());
    } catch (caught) {
      if (!(caught instanceof SiteError)) throw caught;
      return new Response(`${caught.type}: ${caught.message}\n`, {
        status: statusOfError(caught.type, caught.status),
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      });
    }
  };
}
