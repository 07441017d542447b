import { type ReactNode, useEffect, useState } from "react";
import { TileGrid } from "#app/catalogue/track-list.tsx";
import { ChartList } from "#app/charts/chart-list.tsx";
import type { ChartPage } from "#app/charts/chart-page.server.ts";
import { ShareLinks } from "#app/charts/share-links.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { DemoBadge } from "#app/ui/demo-badge.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import { timeAgo } from "#rules/intl.ts";

/** How often the browser says the chart's age again: the words change by the minute at most. */
const updatedRefreshMs = 60_000;

/**
 * "Updated 12 minutes ago", as a `<time>` of the recompute. The server's words are those of the
 * render, and the page is cached until the next recompute is due (decision 032): once the page
 * runs, the browser says it again by its own clock, every minute. AMP keeps the server's.
 */
function ChartUpdated({ updated }: { updated: NonNullable<ChartPage["updated"]> }) {
  const { t } = useTranslation("charts");
  const [when, setWhen] = useState(updated.text);
  useEffect(() => {
    const say = () => setWhen(timeAgo(Date.parse(updated.at), Date.now(), updated.locale));
    say();
    const timer = setInterval(say, updatedRefreshMs);
    return () => clearInterval(timer);
  }, [updated.at, updated.locale]);
  return <time dateTime={updated.at}>{t("updated", { when })}</time>;
}

/**
 * A chart page: the way back, the heading, the chart types' tabs, the picker (which each renderer
 * supplies: a form, or a link to it), the artists or the songs, downloads and sharing.
 */
export function ChartView({
  page,
  canonical,
  picker,
  rowCovers = true,
}: {
  page: ChartPage;
  canonical: string;
  picker: ReactNode;
  /** The rows' covers: the React page has them; the AMP form, held to 40 KB, does not. */
  rowCovers?: boolean;
}) {
  const { t } = useTranslation("charts");
  const { Link } = usePrimitives();
  const { chart } = page;
  return (
    <article className="chart-page">
      <p className="chart-page__back">
        <Link href={page.landingHref}>{t("allCharts")}</Link>
      </p>
      <header className="chart-head">
        <h1>{chart.title}</h1>
        <p className="muted">{chart.description}</p>
        {page.updated === undefined ? null : (
          <p className="muted">
            <ChartUpdated updated={page.updated} />
            {page.demo ? (
              <>
                {" "}
                <DemoBadge>{t("common:demoData")}</DemoBadge>
              </>
            ) : null}
          </p>
        )}
      </header>
      <nav className="chart-tabs" aria-label={t("tabs.label")}>
        <ul className="chart-tabs__list">
          {page.tabs.map((tab) => (
            <li key={tab.type}>
              <Link className="chart-tabs__tab" href={tab.href} current={tab.current}>
                {t(`tabs.${tab.type}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {picker}
      <div className="chart-layout">
        <div className="chart-layout__main">
          {chart.include === "artists" ? (
            <section className="section" aria-labelledby="chart-artists">
              <div className="section__head">
                <h2 id="chart-artists">{t("artists.heading")}</h2>
                <Link href={chart.href}>{t("artists.hide")}</Link>
              </div>
              <TileGrid
                label={t("artists.heading")}
                items={page.artists.map((artist) => ({
                  key: artist.id,
                  title: artist.name,
                  href: artist.href,
                  image: artist.avatar,
                }))}
              />
            </section>
          ) : null}
          <section aria-labelledby="chart-songs">
            <div className="section__head">
              <h2 id="chart-songs">{t("songsHeading")}</h2>
              <span className="muted">{t("songCount", { count: page.songCount })}</span>
            </div>
            {page.rows.length > 0 ? (
              <ChartList rows={page.rows} label={chart.title} start={page.firstRank} covers={rowCovers} />
            ) : (
              <p className="card muted">{t("empty")}</p>
            )}
            {page.rowPages.length > 0 ? (
              <nav className="chart-tabs chart-pages" aria-label={t("pages.label")}>
                <ul className="chart-tabs__list">
                  {page.rowPages.map((rowPage) => (
                    <li key={rowPage.number}>
                      <Link className="chart-tabs__tab" href={rowPage.href} current={rowPage.current}>
                        {t("pages.songs", { from: rowPage.from, to: rowPage.to })}
                      </Link>
                    </li>
                  ))}
                </ul>
              </nav>
            ) : null}
          </section>
        </div>
        <aside className="chart-layout__side">
          {chart.include === "artists" ? null : (
            <p className="card chart-artists-link">
              <Link href={chart.artistsHref}>{t("artists.show")}</Link>
            </p>
          )}
          <section className="chart-downloads card" aria-labelledby="chart-downloads">
            <h2 id="chart-downloads">{t("download.heading")}</h2>
            <ul className="chart-downloads__list">
              <li>
                <Link href={chart.csvHref} download>
                  {t("download.csv")}
                </Link>
              </li>
              <li>
                <Link href={chart.jsonHref} download>
                  {t("download.json")}
                </Link>
              </li>
            </ul>
          </section>
          <ShareLinks
            className="card"
            url={canonical}
            subject={chart.title}
            text={t("share.text", { title: chart.title })}
            labels={{ heading: t("share.heading"), twitter: t("share.twitter"), email: t("share.email") }}
          />
        </aside>
      </div>
    </article>
  );
}
