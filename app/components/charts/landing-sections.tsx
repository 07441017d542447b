import type { ComponentType, ReactNode } from "react";
import type { ChartsLanding } from "~/data/charts.server";
import type { Translate } from "~/strings";

/** A link to a page of the site: Remix's `Link` on the React page, a plain link in AMP. */
export type SiteLink = ComponentType<{ href: string; className?: string; children: ReactNode }>;

type Genres = ChartsLanding["world"]["genres"];

/** The charts landing's section for the visitor's country: its top 200, discovery, cities and genres. */
export function CountryCharts({
  country,
  t,
  LinkComponent,
}: {
  country: NonNullable<ChartsLanding["country"]>;
  t: Translate;
  LinkComponent: SiteLink;
}) {
  return (
    <section className="section" aria-labelledby="charts-country">
      <h2 id="charts-country">{country.name}</h2>
      <ul className="chart-entries">
        <li>
          <LinkComponent className="chart-entry" href={country.top200Href}>
            {t("charts:tabs.top-200")}
          </LinkComponent>
        </li>
        <li>
          <LinkComponent className="chart-entry" href={country.discoveryHref}>
            {t("charts:tabs.discovery")}
          </LinkComponent>
        </li>
      </ul>
      {country.cities.length > 0 ? (
        <>
          <h3>{t("charts:landing.cityCharts")}</h3>
          <ul className="chart-links">
            {country.cities.map((city) => (
              <li key={city.href}>
                <LinkComponent href={city.href}>{city.name}</LinkComponent>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <GenreLinks genres={country.genres} t={t} LinkComponent={LinkComponent} />
    </section>
  );
}

/** The charts landing's section for the world: its top 200 and genres. */
export function WorldCharts({
  world,
  t,
  LinkComponent,
}: {
  world: ChartsLanding["world"];
  t: Translate;
  LinkComponent: SiteLink;
}) {
  return (
    <section className="section" aria-labelledby="charts-world">
      <h2 id="charts-world">{world.name}</h2>
      <ul className="chart-entries">
        <li>
          <LinkComponent className="chart-entry" href={world.top200Href}>
            {t("charts:tabs.top-200")}
          </LinkComponent>
        </li>
      </ul>
      <GenreLinks genres={world.genres} t={t} LinkComponent={LinkComponent} />
    </section>
  );
}

function GenreLinks({ genres, t, LinkComponent }: { genres: Genres; t: Translate; LinkComponent: SiteLink }) {
  if (genres.length === 0) return null;
  return (
    <>
      <h3>{t("charts:landing.genreCharts")}</h3>
      <ul className="chart-links">
        {genres.map((genre) => (
          <li key={genre.href}>
            <LinkComponent href={genre.href}>{genre.name}</LinkComponent>{" "}
            <span className="muted">({t("charts:songCount", { count: genre.count })})</span>
          </li>
        ))}
      </ul>
    </>
  );
}
