import {
  data,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { chartPickerQuerySchema, loadLocations, pickedChartPath } from "#app/charts/chart-address.server.ts";
import { chartDocumentHeaders } from "#app/charts/chart-page.server.ts";
import { ChartPicker } from "#app/charts/chart-picker.tsx";
import { chartsLandingMeta, loadChartsLanding } from "#app/charts/charts-landing.server.ts";
import { PickerLink } from "#app/charts/picker-link.tsx";
import type { AmpView } from "#app/shell/amp-view.ts";
import { loadPage, requireKnownLanguage, throwSiteError } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings, useTranslation } from "#app/shell/strings.ts";
import chartsStyles from "#app/styles/charts.css";
import { SiteError } from "#rules/errors.ts";
import { localizedPath } from "#rules/path.ts";
import { LandingView } from "./view";

// Spec 001 §2 "/charts": the charts landing. Its picker is a GET form to this URL: with a chart type
// it redirects to that chart, with a country only it shows that country's charts.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartsStyles }];

// The preview is a chart's first songs: kept until its next recompute is due (decision 032).
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

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
  const now = new Date();
  const page = await loadPage(() => loadChartsLanding(context, query, now));
  const { t } = serverStrings(edge.lang);
  const meta = chartsLandingMeta(context, request, t);
  return data(
    { page, meta, strings: pickResources(edge.lang, ["charts"]).charts },
    { headers: chartDocumentHeaders(page.preview.computedAt, now.getTime()) },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

/** The picker is a form, which AMP pages do not carry: there, the link to the interactive landing. */
export const ampView: AmpView<typeof loader> = ({ data }) => {
  const { t } = useTranslation("charts");
  return (
    <LandingView
      page={data.page}
      picker={<PickerLink href={data.page.picker.action} label={t("landing.pickerHeading")} />}
    />
  );
};

export default function ChartsLanding() {
  const { page, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("charts", strings);
  const picker = (
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
  );
  return <LandingView page={page} picker={picker} />;
}
