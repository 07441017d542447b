import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { interstitialKeyOf } from "#app/recognition/interstitial-address.server.ts";
import { RecognitionInterstitial } from "#app/recognition/recognition-interstitial.tsx";
import TrackRoute, {
  links as trackLinks,
  meta as trackMeta,
  trackRouteData,
} from "#app/routes/($lang).track.$key.$alias/route.tsx";
import { usePageStrings } from "#app/shell/strings.ts";

/**
 * `/track/webrec/interstitial?key=…`: the recognition interstitial (spec 002 §2, a takeover) as an
 * address. Visited directly it opens over that track's page, its title, artist and colours taken
 * from the track's data (not the query); closing it leaves the track page.
 */
export async function loader(args: LoaderFunctionArgs) {
  return trackRouteData(args, interstitialKeyOf(new URL(args.request.url).searchParams));
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
