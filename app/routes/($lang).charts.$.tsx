import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";
import { chartPathOutsideCharts } from "#app/charts/chart-address.server.ts";
import { requireKnownLanguage, throwSiteError } from "#app/shell/http.server.ts";
import { SiteError } from "#rules/errors.ts";

// /{lang}/charts/{type}/… moves to the chart's own address (see chartPathOutsideCharts); any other
// path under /charts is not found.
export function loader({ params, request }: LoaderFunctionArgs): never {
  requireKnownLanguage(params);
  const url = new URL(request.url);
  const moved = chartPathOutsideCharts(url.pathname);
  if (moved === undefined) throwSiteError(new SiteError("notfound", `no chart at ${url.pathname}`));
  throw redirect(`${moved}${url.search}`, 301);
}

export default function ChartsElsewhere() {
  return null;
}
