import {
  data,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { chartPagePath, chartRouteOf, redirectChartsPrefix } from "#app/charts/chart-address.server.ts";
import { chartDocumentHeaders, chartPageMeta, loadChartPage } from "#app/charts/chart-page.server.ts";
import { ChartPicker } from "#app/charts/chart-picker.tsx";
import { PickerLink } from "#app/charts/picker-link.tsx";
import type { AmpView } from "#app/shell/amp-view.ts";
import { featureOptionsOf, isFeatureEnabled, visitorFeatures } from "#app/shell/features.server.ts";
import { loadPage, requireKnownLanguage, throwSiteError } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings, useTranslation } from "#app/shell/strings.ts";
import chartsStyles from "#app/styles/charts.css";
import { SiteError } from "#rules/errors.ts";
import { featureNames } from "#rules/feature-names.ts";
import { chartRowsPageOf, chartRowsPageParam } from "#rules/path.ts";
import { ChartView } from "./view";

// Spec 001 §2 chart pages, `{type}/{country-or-world}/{cityOrGenre}[/{include}]`: this module is the
// top-200 route and, re-exported, the discovery, top-50 and genre routes. The type is the path's
// first segment (rules/path.ts `chartType`).

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartsStyles }];

// Kept until the next recompute is due, never stale past it (`chartDocumentHeaders`, decision 032).
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  redirectChartsPrefix(params, request);
  requireKnownLanguage(params);
  const { edge } = context;
  const url = new URL(request.url);
  const now = new Date();
  const rowsPage = chartRowsPageOf(url.searchParams);
  if (rowsPage === undefined)
    throwSiteError(new SiteError("invalidparam", `A chart's ${chartRowsPageParam} is a number from 2`));
  const page = await loadPage(async () => {
    const route = chartRouteOf(context, params);
    const features = await visitorFeatures(context, featureOptionsOf(context, request));
    const adamIdRoute = isFeatureEnabled(features, featureNames.adamIdRoute);
    const genreTabs = isFeatureEnabled(features, featureNames.chartsGenreTabs);
    return loadChartPage(context, route, { adamIdRoute, genreTabs, rowsPage }, now);
  });
  // One URL per chart: other spellings (upper case, "Artists") move to the canonical one, and the
  // first page of rows has no page number.
  const requested = ["", edge.path.segments[0], params.country, params.cityOrGenre, params.include]
    .filter((segment) => segment !== undefined)
    .join("/");
  const canonical = chartPagePath(page.chart);
  const firstPageNamed = url.searchParams.get(chartRowsPageParam) === "1";
  if (requested !== canonical || firstPageNamed) {
    if (firstPageNamed) url.searchParams.delete(chartRowsPageParam);
    throw redirect(`${params.lang ? `/${params.lang}` : ""}${canonical}${url.search}`, 301);
  }
  const { t } = serverStrings(edge.lang);
  const meta = chartPageMeta(page, context, request, t);
  return data(
    { page, meta, strings: pickResources(edge.lang, ["charts"]).charts },
    { headers: chartDocumentHeaders(page.updated?.at, now.getTime()) },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

/**
 * The picker is a form, which AMP pages do not carry: there, the link to the interactive page. An
 * AMP document is held to 40 KB (decision 056): its rows are text, without covers.
 */
export const ampView: AmpView<typeof loader> = ({ data }) => {
  const { t } = useTranslation("charts");
  return (
    <ChartView
      page={data.page}
      canonical={data.meta.canonical}
      picker={<PickerLink href={data.page.chart.pageHref} label={t("picker.heading")} />}
      rowCovers={false}
    />
  );
};

export default function ChartRoute() {
  const { page, meta, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("charts", strings);
  const picker = (
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
  );
  return <ChartView page={page} canonical={meta.canonical} picker={picker} />;
}
