import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Lyrics } from "~/components/track/lyrics";
import { PlaybackProvider } from "~/components/track/playback";
import { coverSizes, TrackHero } from "~/components/track/track-hero";
import {
  ArtistSection,
  Credits,
  RelatedTracks,
  ShareLinks,
  StoreLinks,
  VideoSection,
} from "~/components/track/track-sections";
import { loadTrackPage, trackPageMeta } from "~/data/track.server";
import { loadPage, requireKnownLanguage } from "~/http.server";
import { createI18n, pickResources } from "~/i18n.server";
import { pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import styles from "~/styles/track.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

// The store order depends on the visitor's platform (spec 001 §3), read from the user agent.
export const headers: HeadersFunction = () => ({ Vary: "User-Agent" });

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const url = new URL(request.url);
  const page = await loadPage(() =>
    loadTrackPage(context, {
      keySegment: params.key,
      search: url.searchParams,
      userAgent: request.headers.get("user-agent"),
      origin: url.origin,
      now: new Date(),
    }),
  );
  // A wrong alias (or an id with trailing characters) moves to the one address of the track.
  if (params.key !== page.key || params.alias !== page.alias)
    throw redirect(`${page.path}${url.search}`, 301);

  const { t } = createI18n(context.edge.lang, ["common", "track"]);
  const meta = trackPageMeta(page, context, request, t);
  return { page, meta, strings: pickResources(context.edge.lang, ["track"]).track };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [];
  const { meta, page } = data;
  return [
    ...pageMeta(meta),
    // Spec 002 §2 "/track/{trackId} preloads the track cover art".
    {
      tagName: "link",
      rel: "preload",
      as: "image",
      href: page.cover.src,
      imageSrcSet: page.cover.srcSet,
      imageSizes: coverSizes,
    },
  ];
};

export default function TrackRoute() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("track", strings);
  return (
    <PlaybackProvider key={page.key} entries={page.playlist}>
      <article className="track-page" data-track-view="">
        <TrackHero page={page} />
        <div className="track-columns">
          <div className="track-columns__listen">
            <StoreLinks page={page} />
            <ShareLinks page={page} />
          </div>
          <div className="track-columns__main">
            {page.lyrics ? <Lyrics lyrics={page.lyrics} /> : null}
            <VideoSection page={page} />
            <RelatedTracks page={page} />
          </div>
          <div className="track-columns__artist">
            <ArtistSection page={page} />
          </div>
        </div>
        <Credits page={page} />
      </article>
    </PlaybackProvider>
  );
}
