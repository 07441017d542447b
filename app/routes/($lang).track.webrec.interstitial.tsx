import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useNavigate } from "@remix-run/react";
import * as v from "valibot";
import { RecognitionInterstitial } from "#app/recognition/recognition-interstitial.tsx";
import TrackRoute, {
  links as trackLinks,
  meta as trackMeta,
  trackRouteData,
} from "#app/routes/($lang).track.$key.$alias/route.tsx";
import { throwSiteError } from "#app/shell/http.server.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import { SiteError } from "#rules/errors.ts";

/** A track key, as the track address writes it. */
const interstitialSchema = v.object({ key: v.pipe(v.string(), v.regex(/^\d{1,12}$/)) });

/**
 * `/track/webrec/interstitial?key=…`: the recognition interstitial (spec 002 §2, a takeover) as an
 * address. Visited directly it opens over that track's page, its title, artist and colours taken
 * from the track's data (not the query); closing it leaves the track page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const search = new URL(args.request.url).searchParams;
  const query = v.safeParse(interstitialSchema, { key: search.get("key") ?? "" });
  if (!query.success) throwSiteError(new SiteError("invalidparam", v.summarize(query.issues)));
  return trackRouteData(args, query.output.key);
}

export const links: LinksFunction = trackLinks;

// An overlay over the track page: the track page is the one to index.
export const meta: MetaFunction<typeof loader> = (args) => [
  ...trackMeta(args as Parameters<typeof trackMeta>[0]),
  { name: "robots", content: "noindex" },
];

export default function TrackInterstitial() {
  const { page, recognitionStrings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("recognition", recognitionStrings);
  const navigate = useNavigate();
  // The heading's colour is kept only where white text reads on it: not light.
  const background = page.background?.replace(/^#/, "");
  return (
    <>
      <TrackRoute />
      <RecognitionInterstitial
        track={{
          trackId: page.key,
          title: page.title,
          artist: page.artist.name,
          bkgcolor: background,
          bkglight: false,
        }}
        labels={{
          label: t("interstitial.label"),
          follow: t("interstitial.follow"),
          close: t("interstitial.close"),
        }}
        onClose={() => navigate(page.path, { replace: true })}
      />
    </>
  );
}
