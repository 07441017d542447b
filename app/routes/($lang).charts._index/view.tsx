import type { ReactNode } from "react";
import { TrackList } from "#app/catalogue/track-list.tsx";
import type { ChartsLanding } from "#app/charts/charts-landing.server.ts";
import { CountryCharts, RadioCharts, WorldCharts } from "#app/charts/landing-sections.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";

/**
 * The charts landing: the picker (each renderer supplies it: a form, or a link to it), top in my
 * country, the visitor's country's and the world's charts, and a preview of the top chart.
 */
export function LandingView({ page, picker }: { page: ChartsLanding; picker: ReactNode }) {
  const { t } = useTranslation("charts");
  const { Link } = usePrimitives();
  const { country, world } = page;
  return (
    <div className="charts-landing">
      <header className="chart-head">
        <h1>{t("landing.title")}</h1>
        <p className="muted">{t("landing.intro")}</p>
      </header>
      <div className="chart-layout">
        <div className="chart-layout__main">
          {picker}
          <p className="charts-landing__mine">
            <Link className="button button--quiet" href={page.topInMyCountryHref}>
              {t("landing.topInMyCountry")}
            </Link>
          </p>
          {country ? <CountryCharts country={country} t={t} /> : null}
          <WorldCharts world={world} t={t} />
          <RadioCharts radio={page.radio} t={t} />
        </div>
        <aside className="chart-layout__side" aria-labelledby="charts-preview">
          <h2 id="charts-preview">{page.preview.title}</h2>
          <TrackList tracks={page.preview.tracks} label={page.preview.title} />
          <p className="charts-landing__more">
            <Link href={page.preview.href}>{t("landing.fullChart")}</Link>
          </p>
        </aside>
      </div>
    </div>
  );
}
