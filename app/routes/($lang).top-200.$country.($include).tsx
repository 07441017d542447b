import {
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ChartList } from "~/components/charts/chart-list";
import { ChartPicker } from "~/components/charts/chart-picker";
import { ShareLinks } from "~/components/charts/share-links";
import { TileGrid } from "~/components/track-list";
import { featureOptionsOf, isAdamIdRouteOn } from "~/data/artist.server";
import {
  chartPageMeta,
  chartPagePath,
  chartRouteOf,
  loadChartPage,
  redirectChartsPrefix,
} from "~/data/charts.server";
import { loadPage, requireKnownLanguage } from "~/http.server";
import { createI18n, pickResources } from "~/i18n.server";
import { pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import chartsStyles from "~/styles/charts.css";

// Spec 001 §2 chart pages, `{type}/{country-or-world}/{cityOrGenre}[/{include}]`: this module is the
// top-200 route and, re-exported, the discovery, top-50 and genre routes. The type is the path's
// first segment (edge/path.ts `chartType`).

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartsStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  redirectChartsPrefix(params, request);
  requireKnownLanguage(params);
  const { edge } = context;
  const page = await loadPage(async () => {
    const route = chartRouteOf(context, params);
    const adamIdRoute = await isAdamIdRouteOn(context, featureOptionsOf(context, request));
    return loadChartPage(context, route, { adamIdRoute }, new Date());
  });
  // One URL per chart: other spellings (upper case, "Artists") move to the canonical one.
  const requested = ["", edge.path.segments[0], params.country, params.cityOrGenre, params.include]
    .filter((segment) => segment !== undefined)
    .join("/");
  const canonical = chartPagePath(page.chart);
  if (requested !== canonical) {
    throw redirect(`${params.lang ? `/${params.lang}` : ""}${canonical}${new URL(request.url).search}`, 301);
  }
  const { t } = createI18n(edge.lang, ["common", "charts"]);
  const meta = chartPageMeta(page, context, request, t);
  return { page, meta, strings: pickResources(edge.lang, ["charts"]).charts };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function ChartRoute() {
  const { page, meta, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("charts", strings);
  const { chart } = page;
  return (
    <article className="chart-page">
      <p className="chart-page__back">
        <Link to={page.landingHref}>{t("allCharts")}</Link>
      </p>
      <header className="chart-head">
        <h1>{chart.title}</h1>
        <p className="muted">{chart.description}</p>
      </header>
      <nav className="chart-tabs" aria-label={t("tabs.label")}>
        <ul className="chart-tabs__list">
          {page.tabs.map((tab) => (
            <li key={tab.type}>
              <Link className="chart-tabs__tab" to={tab.href} aria-current={tab.current ? "page" : undefined}>
                {t(`tabs.${tab.type}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ChartPicker
        action={page.picker.action}
        type={page.picker.type}
        countries={page.picker.countries}
        country={page.picker.country}
        cities={page.picker.cities}
        city={page.picker.city}
        genres={page.picker.genres}
        genre={page.picker.genre}
        labels={{
          heading: t("picker.heading"),
          country: t("picker.country"),
          city: t("picker.city"),
          genre: t("picker.genre"),
          submit: t("picker.submit"),
        }}
      />
      <div className="chart-layout">
        <div className="chart-layout__main">
          {chart.include === "artists" ? (
            <section className="section" aria-labelledby="chart-artists">
              <div className="section__head">
                <h2 id="chart-artists">{t("artists.heading")}</h2>
                <Link to={chart.href}>{t("artists.hide")}</Link>
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
              <span className="muted">{t("songCount", { count: page.rows.length })}</span>
            </div>
            {page.rows.length > 0 ? (
              <ChartList rows={page.rows} label={chart.title} />
            ) : (
              <p className="card muted">{t("empty")}</p>
            )}
          </section>
        </div>
        <aside className="chart-layout__side">
          {chart.include === "artists" ? null : (
            <p className="card chart-artists-link">
              <Link to={chart.artistsHref}>{t("artists.show")}</Link>
            </p>
          )}
          <section className="chart-downloads card" aria-labelledby="chart-downloads">
            <h2 id="chart-downloads">{t("download.heading")}</h2>
            <ul className="chart-downloads__list">
              <li>
                <a href={chart.csvHref} download>
                  {t("download.csv")}
                </a>
              </li>
              <li>
                <a href={chart.jsonHref} download>
                  {t("download.json")}
                </a>
              </li>
            </ul>
          </section>
          <ShareLinks
            className="card"
            url={meta.canonical}
            subject={chart.title}
            text={t("share.text", { title: chart.title })}
            labels={{ heading: t("share.heading"), twitter: t("share.twitter"), email: t("share.email") }}
          />
        </aside>
      </div>
    </article>
  );
}
