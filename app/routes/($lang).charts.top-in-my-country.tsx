import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";

import { loadLocations, topInCountryPath } from "#app/charts/chart-address.server.ts";
import { loadPage, requireKnownLanguage } from "#app/shell/http.server.ts";
import { localizedPath } from "#rules/path.ts";

// Spec 001 §2: "A command 'top in my country' redirects to top-200/{country url name or world}".
// The target depends on the visitor's country, so the answer is never cached.
export async function loader({ params, context }: LoaderFunctionArgs): Promise<never> {
  requireKnownLanguage(params);
  const { edge } = context;
  const target = await loadPage(() =>
    (async () => topInCountryPath(await loadLocations(context), edge.country))(),
  );
  throw redirect(localizedPath(edge.lang, target), { status: 302, headers: { "Cache-Control": "no-store" } });
}

export default function TopInMyCountry() {
  return null;
}
