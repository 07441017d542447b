import {
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { ComponentProps } from "react";
import * as v from "valibot";
import { ChartPicker } from "~/components/charts/chart-picker";
import { CountryCharts, type SiteLink, WorldCharts } from "~/components/charts/landing-sections";
import { TrackList } from "~/components/track-list";

import {
  chartPickerQuerySchema,
  chartsLandingMeta,
  loadChartsLanding,
  loadLocations,
  pickedChartPath,
} from "~/data/charts.server";
import { loadPage, requireKnownLanguage, throwSiteError } from "~/http.server";
import { createI18n, pickResources } from "~/i18n.server";
import { pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import chartsStyles from "~/styles/charts.css";
import { SiteError } from "../../edge/errors";
import { localizedPath } from "../../edge/path";

// Spec 001 §2 "/charts": the charts landing. Its picker is a GET form to this URL: with a chart type
// it redirects to that chart, with a country only it shows that country's charts.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartsStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { edge } = context;
  const parsed = v.safeParse(chartPickerQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throwSiteError(new SiteError("invalidparam", v.summarize(parsed.issues)));
  const query = parsed.output;
  if (query.type !== undefined) {
    const target = await loadPage(async () =>
      pickedChartPath(await loadLocations(context), query, edge.country),
    );
    if (target !== undefined) {
      // The answer depends on the form's choice: never cached.
      throw redirect(localizedPath(edge.lang, target), {
        status: 302,
        headers: { "Cache-Control": "no-store" },
      });
    }
  }
  const page = await loadPage(() => loadChartsLanding(context, query, new Date()));
  const { t } = createI18n(edge.lang, ["common", "charts"]);
  const meta = chartsLandingMeta(context, request, t);
  return { page, meta, strings: pickResources(edge.lang, ["charts"]).charts };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function ChartsLanding() {
  const { page, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("charts", strings);
  const { country, world } = page;
  return (
    <div className="charts-landing">
      <header className="chart-head">
        <h1>{t("landing.title")}</h1>
        <p className="muted">{t("landing.intro")}</p>
      </header>
      <div className="chart-layout">
        <div className="chart-layout__main">
          <ChartPicker
            action={page.picker.action}
            countries={page.picker.countries}
            country={page.picker.country}
            labels={{
              heading: t("landing.pickerHeading"),
              country: t("picker.country"),
              city: t("picker.city"),
              genre: t("picker.genre"),
              submit: t("landing.showCharts"),
            }}
          />
          <p className="charts-landing__mine">
            <a className="button button--quiet" href={page.topInMyCountryHref}>
              {t("landing.topInMyCountry")}
            </a>
          </p>
          {country ? <CountryCharts country={country} t={t} LinkComponent={RouteLink} /> : null}
          <WorldCharts world={world} t={t} LinkComponent={RouteLink} />
        </div>
        <aside className="chart-layout__side" aria-labelledby="charts-preview">
          <h2 id="charts-preview">{page.preview.title}</h2>
          <TrackList tracks={page.preview.tracks} label={page.preview.title} />
          <p className="charts-landing__more">
            <Link to={page.preview.href}>{t("landing.fullChart")}</Link>
          </p>
        </aside>
      </div>
    </div>
  );
}

function RouteLink({ href, ...rest }: ComponentProps<SiteLink>) {
  return <Link to={href} {...rest} />;
}
