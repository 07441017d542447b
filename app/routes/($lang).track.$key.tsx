import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";
import { Outlet } from "@remix-run/react";
import { loadContentPage, requireKnownLanguage } from "#app/shell/http.server.ts";
import { loadTrackPath } from "#app/track/track-calls.server.ts";

/**
 * `/track/{trackKey}`: redirects (301) to the track's canonical `/track/{trackKey}/{alias}`, with
 * the query kept (a web match's synced-lyrics parameters must survive). The alias page is this
 * route's child, so its loader leaves that request alone.
 */
export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  if (params.alias !== undefined) return null;
  const url = new URL(request.url);
  const path = await loadContentPage(() => loadTrackPath(context, params.key, url.searchParams));
  throw redirect(`${path}${url.search}`, 301);
}

export default function TrackKey() {
  return <Outlet />;
}
