import type { Translate } from "#app/shell/strings.ts";
import { LabelledSection } from "#app/ui/labelled-section.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { ChartsLanding } from "./charts-landing.server";

type Genres = ChartsLanding["world"]["genres"];

/** The charts landing's section for the visitor's country: its top 200, discovery, cities and genres. */
export function CountryCharts({
  country,
  t,
}: {
  country: NonNullable<ChartsLanding["country"]>;
  t: Translate;
}) {
  const { Link } = usePrimitives();
  return (
    <LabelledSection id="charts-country" heading={country.name}>
      <ul className="chart-entries">
        <li>
          <Link className="chart-entry" href={country.top200Href}>
            {t("charts:tabs.top-200")}
          </Link>
        </li>
        <li>
          <Link className="chart-entry" href={country.discoveryHref}>
            {t("charts:tabs.discovery")}
          </Link>
        </li>
      </ul>
      {country.cities.length > 0 ? (
        <>
          <h3>{t("charts:landing.cityCharts")}</h3>
          <ul className="chart-links">
            {country.cities.map((city) => (
              <li key={city.href}>
                <Link href={city.href}>{city.name}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <GenreLinks genres={country.genres} t={t} />
    </LabelledSection>
  );
}

/** The charts landing's section for the world: its top 200, discovery and genres. */
export function WorldCharts({ world, t }: { world: ChartsLanding["world"]; t: Translate }) {
  const { Link } = usePrimitives();
  return (
    <LabelledSection id="charts-world" heading={world.name}>
      <ul className="chart-entries">
        <li>
          <Link className="chart-entry" href={world.top200Href}>
            {t("charts:tabs.top-200")}
          </Link>
        </li>
        <li>
          <Link className="chart-entry" href={world.discoveryHref}>
            {t("charts:tabs.discovery")}
          </Link>
        </li>
      </ul>
      <GenreLinks genres={world.genres} t={t} />
    </LabelledSection>
  );
}

function GenreLinks({ genres, t }: { genres: Genres; t: Translate }) {
  const { Link } = usePrimitives();
  if (genres.length === 0) return null;
  return (
    <>
      <h3>{t("charts:landing.genreCharts")}</h3>
      <ul className="chart-links">
        {genres.map((genre) => (
          <li key={genre.href}>
            <Link href={genre.href}>{genre.name}</Link>{" "}
            <span className="muted">({t("charts:songCount", { count: genre.count })})</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Spec 001 §1 "radio airplay charts per genre": one page per genre. */
export function RadioCharts({ radio, t }: { radio: ChartsLanding["radio"]; t: Translate }) {
  const { Link } = usePrimitives();
  if (radio.length === 0) return null;
  return (
    <LabelledSection id="charts-radio" heading={t("charts:landing.radioCharts")}>
      <ul className="chart-links">
        {radio.map((genre) => (
          <li key={genre.href}>
            <Link href={genre.href}>{genre.name}</Link>
          </li>
        ))}
      </ul>
    </LabelledSection>
  );
}
