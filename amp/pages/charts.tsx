import * as v from "valibot";
import { CountryCharts, WorldCharts } from "../../app/components/charts/landing-sections";
import { ShareLinks } from "../../app/components/charts/share-links";
import { featureOptionsOf, isAdamIdRouteOn } from "../../app/data/artist.server";
import {
  type ChartPage,
  type ChartsLanding,
  chartPageMeta,
  chartPagePath,
  chartPathOutsideCharts,
  chartPickerQuerySchema,
  chartRouteOf,
  chartsLandingMeta,
  loadChartPage,
  loadChartsLanding,
  loadLocations,
  pickedChartPath,
  topInCountryPath,
} from "../../app/data/charts.server";
import { SiteError } from "../../edge/errors";
import { ampPath } from "../../edge/path";
import { AmpImg, AmpLink, AmpTileGrid, AmpTrackList, listCoverSize } from "../components";
import { type AmpOutcome, type AmpPageRenderer, type AmpRequest, ampLocationOf } from "../page";
import { ampTranslator, type Translate } from "../strings";

/** `/charts/top-in-my-country` (spec 001 §2 "A command 'top in my country' redirects…"). */
const topInMyCountrySegment = "top-in-my-country";

/** A move that depends on the visitor or on a form's choice: never kept by a cache. */
function visitorRedirect(location: string): AmpOutcome {
  return { kind: "redirect", location, status: 302, cacheControl: "no-store" };
}

/**
 * Chart pages (spec 001 §2), as the React chart routes answer them: the `/charts` landing (its
 * picker's query included), `/charts/top-in-my-country`, `/charts/{type}/…` moved to the chart's
 * own address, and the charts `{type}/{country-or-world}/{cityOrGenre}[/{include}]`.
 */
export const chartsAmpPage: AmpPageRenderer = async (request) => {
  const { edge } = request.context;
  const [head, second, ...rest] = edge.path.segments;
  if (head?.toLowerCase() === "charts") {
    if (second === undefined) return chartsLanding(request);
    if (second === topInMyCountrySegment && rest.length === 0) {
      const target = topInCountryPath(await loadLocations(request.context), edge.country);
      return visitorRedirect(ampPath(edge.lang, target));
    }
    const moved = chartPathOutsideCharts(request.url.pathname);
    return moved === undefined ? undefined : { kind: "redirect", location: `${moved}${request.url.search}` };
  }
  return chartPage(request);
};

async function chartsLanding({ context, request, url, now }: AmpRequest): Promise<AmpOutcome> {
  const { edge } = context;
  const parsed = v.safeParse(chartPickerQuerySchema, Object.fromEntries(url.searchParams));
  if (!parsed.success) throw new SiteError("invalidparam", v.summarize(parsed.issues));
  const query = parsed.output;
  if (query.type !== undefined) {
    const target = pickedChartPath(await loadLocations(context), query, edge.country);
    if (target !== undefined) return visitorRedirect(ampPath(edge.lang, target));
  }
  const page = await loadChartsLanding(context, query, now);
  const t = ampTranslator(edge.lang, ["charts"]);
  const meta = chartsLandingMeta(context, request, t);
  return {
    kind: "page",
    t,
    content: { meta, stylesheets: ["charts"], body: <LandingBody page={page} t={t} /> },
  };
}

/** The chart's route parameters, read from the path as the React routes' segments name them. */
function chartParams(segments: readonly string[]): Record<string, string | undefined> | undefined {
  const [type, country, ...rest] = segments;
  const withPlace = type === "top-50" || type === "genre";
  const [cityOrGenre, include, ...extra] = withPlace ? rest : [undefined, ...rest];
  if (country === undefined || extra.length > 0 || (withPlace && cityOrGenre === undefined)) return undefined;
  return { country, cityOrGenre, include };
}

async function chartPage({ context, request, url, now }: AmpRequest): Promise<AmpOutcome | undefined> {
  const { edge } = context;
  const params = chartParams(edge.path.segments);
  if (!params) return undefined;
  const route = chartRouteOf(context, params);
  const adamIdRoute = await isAdamIdRouteOn(context, featureOptionsOf(context, request));
  const page = await loadChartPage(context, route, { adamIdRoute }, now);
  // One URL per chart: other spellings move to the canonical one, as on the React page.
  const requested = ["", edge.path.segments[0], params.country, params.cityOrGenre, params.include]
    .filter((segment) => segment !== undefined)
    .join("/");
  const canonical = chartPagePath(page.chart);
  if (requested !== canonical)
    return { kind: "redirect", location: `${ampLocationOf(edge, canonical)}${url.search}` };

  const t = ampTranslator(edge.lang, ["charts"]);
  const meta = chartPageMeta(page, context, request, t);
  return {
    kind: "page",
    t,
    content: {
      meta,
      stylesheets: ["charts"],
      body: <ChartBody page={page} canonical={meta.canonical} t={t} />,
    },
  };
}

/**
 * The React chart page's markup. The picker is a form, which AMP pages do not carry: it is the
 * link to the interactive page, where it is; the tabs already lead to the other chart types.
 */
export function ChartBody({ page, canonical, t }: { page: ChartPage; canonical: string; t: Translate }) {
  const { chart } = page;
  return (
    <article className="chart-page">
      <p className="chart-page__back">
        <AmpLink href={page.landingHref}>{t("charts:allCharts")}</AmpLink>
      </p>
      <header className="chart-head">
        <h1>{chart.title}</h1>
        <p className="muted">{chart.description}</p>
      </header>
      <nav className="chart-tabs" aria-label={t("charts:tabs.label")}>
        <ul className="chart-tabs__list">
          {page.tabs.map((tab) => (
            <li key={tab.type}>
              <AmpLink className="chart-tabs__tab" href={tab.href} current={tab.current}>
                {t(`charts:tabs.${tab.type}`)}
              </AmpLink>
            </li>
          ))}
        </ul>
      </nav>
      <p className="chart-picker card">
        <AmpLink href={chart.pageHref}>{t("charts:picker.heading")}</AmpLink>
      </p>
      <div className="chart-layout">
        <div className="chart-layout__main">
          {chart.include === "artists" ? (
            <section className="section" aria-labelledby="chart-artists">
              <div className="section__head">
                <h2 id="chart-artists">{t("charts:artists.heading")}</h2>
                <AmpLink href={chart.href}>{t("charts:artists.hide")}</AmpLink>
              </div>
              <AmpTileGrid
                label={t("charts:artists.heading")}
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
              <h2 id="chart-songs">{t("charts:songsHeading")}</h2>
              <span className="muted">{t("charts:songCount", { count: page.rows.length })}</span>
            </div>
            {page.rows.length > 0 ? (
              <ChartList rows={page.rows} label={chart.title} t={t} />
            ) : (
              <p className="card muted">{t("charts:empty")}</p>
            )}
          </section>
        </div>
        <aside className="chart-layout__side">
          {chart.include === "artists" ? null : (
            <p className="card chart-artists-link">
              <AmpLink href={chart.artistsHref}>{t("charts:artists.show")}</AmpLink>
            </p>
          )}
          <section className="chart-downloads card" aria-labelledby="chart-downloads">
            <h2 id="chart-downloads">{t("charts:download.heading")}</h2>
            <ul className="chart-downloads__list">
              <li>
                <AmpLink href={chart.csvHref}>{t("charts:download.csv")}</AmpLink>
              </li>
              <li>
                <AmpLink href={chart.jsonHref}>{t("charts:download.json")}</AmpLink>
              </li>
            </ul>
          </section>
          <ShareLinks
            url={canonical}
            subject={chart.title}
            text={t("charts:share.text", { title: chart.title })}
            labels={{
              heading: t("charts:share.heading"),
              twitter: t("charts:share.twitter"),
              email: t("charts:share.email"),
            }}
          />
        </aside>
      </div>
    </article>
  );
}

/** The React `ChartList`: rank in the locale's digits, cover, title to the song, artist to the artist. */
function ChartList({ rows, label, t }: { rows: ChartPage["rows"]; label: string; t: Translate }) {
  return (
    <ol className="track-list chart-list" aria-label={label}>
      {rows.map((row) => (
        <li className="track-row chart-row" key={row.key}>
          <span className="track-row__rank">{row.rankLabel}</span>
          <AmpImg
            image={row.cover}
            width={listCoverSize}
            height={listCoverSize}
            layout="fixed"
            alt=""
            className="track-row__cover"
            placeholder
          />
          <span className="chart-row__text">
            <AmpLink className="track-row__title" href={row.href}>
              {row.title}
            </AmpLink>
            <span className="track-row__artist">
              <AmpLink className="chart-row__artist" href={row.artistHref}>
                {row.artist}
              </AmpLink>
              {row.isNewRelease ? <span className="badge">{t("common:newRelease")}</span> : null}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * The React charts landing's markup. Its country picker is a form: here, the link to the
 * interactive landing, where it is.
 */
export function LandingBody({ page, t }: { page: ChartsLanding; t: Translate }) {
  const { country, world } = page;
  return (
    <div className="charts-landing">
      <header className="chart-head">
        <h1>{t("charts:landing.title")}</h1>
        <p className="muted">{t("charts:landing.intro")}</p>
      </header>
      <div className="chart-layout">
        <div className="chart-layout__main">
          <p className="chart-picker card">
            <AmpLink href={page.picker.action}>{t("charts:landing.pickerHeading")}</AmpLink>
          </p>
          <p>
            <AmpLink className="button button--quiet" href={page.topInMyCountryHref}>
              {t("charts:landing.topInMyCountry")}
            </AmpLink>
          </p>
          {country ? <CountryCharts country={country} t={t} LinkComponent={AmpLink} /> : null}
          <WorldCharts world={world} t={t} LinkComponent={AmpLink} />
        </div>
        <aside className="chart-layout__side" aria-labelledby="charts-preview">
          <div className="section__head">
            <h2 id="charts-preview">{page.preview.title}</h2>
          </div>
          <AmpTrackList tracks={page.preview.tracks} label={page.preview.title} t={t} />
          <p className="charts-landing__more">
            <AmpLink href={page.preview.href}>{t("charts:landing.fullChart")}</AmpLink>
          </p>
        </aside>
      </div>
    </div>
  );
}
