import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { TrackList } from "~/components/track-list";
import { homePageMeta, loadHomePage } from "~/data/home.server";
import { loadPage, requireKnownLanguage } from "~/http.server";
import { createI18n, pickResources } from "~/i18n.server";
import { pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const page = await loadPage(() => loadHomePage(context, new Date()));
  const { t } = createI18n(context.edge.lang, ["common", "home"]);
  const meta = homePageMeta(context, request, t);
  return { page, meta, strings: pickResources(context.edge.lang, ["home"]).home };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function Home() {
  const { page, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("home", strings);
  return (
    <>
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">{t("heroTitle")}</h1>
        <p>{t("heroText")}</p>
        <p className="hero__actions">
          <Link className="button button--light" to={page.identifyHref}>
            {t("identify")}
          </Link>
          <Link className="button button--outline" to={page.searchHref}>
            {t("searchCatalogue")}
          </Link>
          <Link className="button button--outline" to={page.chartsHref}>
            {t("browseCharts")}
          </Link>
        </p>
      </section>
      <div className="columns">
        <section className="section" aria-labelledby="home-chart">
          <div className="section__head">
            <h2 id="home-chart">{t("topIn", { country: page.chartName })}</h2>
            <Link to={page.chartHref}>{t("fullChart")}</Link>
          </div>
          <TrackList tracks={page.top} label={t("topIn", { country: page.chartName })} />
        </section>
        <section className="section" aria-labelledby="home-new">
          <div className="section__head">
            <h2 id="home-new">{t("newReleases")}</h2>
          </div>
          <TrackList tracks={page.newReleases} ranked={false} label={t("newReleases")} />
        </section>
      </div>
    </>
  );
}
