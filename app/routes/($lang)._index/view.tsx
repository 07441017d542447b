import { TrackList } from "#app/catalogue/track-list.tsx";
import { countryKey } from "#app/shell/places.ts";
import { useTranslation } from "#app/shell/strings.ts";
import { Hero } from "#app/ui/hero.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { HomePage } from "./page.server";

/** The home page: the hero with its entry points, the country's chart and the new releases. */
export function HomeView({ page }: { page: HomePage }) {
  const { t } = useTranslation("home");
  const { Link } = usePrimitives();
  const topLabel = t(countryKey(page.chartCountry, "topIn", "topInNamed"), page.chartCountry);
  return (
    <>
      <Hero
        id="home-title"
        title={t("heroTitle")}
        text={t("heroText")}
        actions={[
          { href: page.identifyHref, label: t("identify") },
          { href: page.searchHref, label: t("searchCatalogue") },
          { href: page.chartsHref, label: t("browseCharts") },
        ]}
      />
      <div className="columns">
        <section className="section" aria-labelledby="home-chart">
          <div className="section__head">
            <h2 id="home-chart">{topLabel}</h2>
            <Link href={page.chartHref}>{t("fullChart")}</Link>
          </div>
          <TrackList tracks={page.top} label={topLabel} />
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
