import { type HomePage, homePageMeta, loadHomePage } from "../../app/data/home.server";
import { AmpLink, AmpTrackList } from "../components";
import type { AmpPageRenderer } from "../page";
import { ampTranslator, type Translate } from "../strings";

/** The home page, `/` and `/home` (spec 000 §2 "The root path is treated as /home"). */
export const homeAmpPage: AmpPageRenderer = async ({ context, request, now }) => {
  if (context.edge.path.segments.length !== 1) return undefined;
  const page = await loadHomePage(context, now);
  const t = ampTranslator(context.edge.lang, ["home"]);
  const meta = homePageMeta(context, request, t);
  return { kind: "page", t, content: { meta, stylesheets: [], body: <HomeBody page={page} t={t} /> } };
};

/** The React home page's markup; the search box is the link to the search page. */
export function HomeBody({ page, t }: { page: HomePage; t: Translate }) {
  const topLabel = t("home:topIn", { country: page.chartName });
  return (
    <>
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">{t("home:heroTitle")}</h1>
        <p>{t("home:heroText")}</p>
        <p className="hero__actions">
          <AmpLink className="button button--light" href={page.identifyHref}>
            {t("home:identify")}
          </AmpLink>
          <AmpLink className="button button--outline" href={page.searchHref}>
            {t("home:searchCatalogue")}
          </AmpLink>
          <AmpLink className="button button--outline" href={page.chartsHref}>
            {t("home:browseCharts")}
          </AmpLink>
        </p>
      </section>
      <div className="columns">
        <section className="section" aria-labelledby="home-chart">
          <div className="section__head">
            <h2 id="home-chart">{topLabel}</h2>
            <AmpLink href={page.chartHref}>{t("home:fullChart")}</AmpLink>
          </div>
          <AmpTrackList tracks={page.top} label={topLabel} t={t} />
        </section>
        <section className="section" aria-labelledby="home-new">
          <div className="section__head">
            <h2 id="home-new">{t("home:newReleases")}</h2>
          </div>
          <AmpTrackList tracks={page.newReleases} ranked={false} label={t("home:newReleases")} t={t} />
        </section>
      </div>
    </>
  );
}
