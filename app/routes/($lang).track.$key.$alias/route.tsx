import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { recognitionPanelData } from "#app/recognition/recognition-panel.server.ts";
import { RecognitionPanel } from "#app/recognition/recognition-panel.tsx";
import type { AmpView } from "#app/shell/amp-view.ts";
import { featureEnabledFor } from "#app/shell/features.server.ts";
import { loadContentPage, requireKnownLanguage, siteOriginOf } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { MenuButton } from "#app/shell/menu-button.tsx";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import { StreamingConnection } from "#app/streaming/streaming-connection.tsx";
import connectStyles from "#app/styles/connect.css";
import recognitionStyles from "#app/styles/recognition.css";
import styles from "#app/styles/track.css";
import { PlaybackProvider, playbackPrimitives } from "#app/track/playback.tsx";
import { loadTrackPage, trackPageMeta } from "#app/track/track.server.ts";
import { coverSizes } from "#app/track/track-hero.tsx";
import { VideoPlay } from "#app/track/video-play.tsx";
import { PrimitivesProvider } from "#app/ui/primitives.tsx";
import { featureNames } from "#rules/feature-names.ts";
import { TrackView } from "./view";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: connectStyles },
  { rel: "stylesheet", href: recognitionStyles },
];

// The store order depends on the visitor's platform (spec 001 §3), read from the user agent.
export const headers: HeadersFunction = () => ({ Vary: "User-Agent" });

export async function loader(args: LoaderFunctionArgs) {
  const { params, request } = args;
  const data = await trackRouteData(args, params.key);
  const { page } = data;
  // A wrong alias (or an id with trailing characters) moves to the one address of the track.
  if (params.key !== page.key || params.alias !== page.alias)
    throw redirect(`${page.path}${new URL(request.url).search}`, 301);
  return data;
}

/** The track page's data for `keySegment`, wherever it is drawn (its own address, an overlay's). */
export async function trackRouteData(
  { params, context, request }: LoaderFunctionArgs,
  keySegment: string | undefined,
) {
  requireKnownLanguage(params);
  const url = new URL(request.url);
  const syncedLyrics = await featureEnabledFor(context, request, featureNames.syncedLyrics);
  const page = await loadContentPage(() =>
    loadTrackPage(context, {
      keySegment,
      search: url.searchParams,
      userAgent: request.headers.get("user-agent"),
      origin: siteOriginOf(context.config),
      now: new Date(),
      syncedLyrics,
    }),
  );
  const { t } = serverStrings(context.edge.lang);
  const meta = trackPageMeta(page, context, request, t);
  const strings = pickResources(context.edge.lang, ["track", "connect", "recognition"]);
  return {
    page,
    meta,
    strings: strings.track,
    connectStrings: strings.connect,
    // Spec 002 §2: a match of the track the visitor is on shows the interstitial.
    listen: recognitionPanelData(
      context.edge,
      url.searchParams,
      await featureEnabledFor(context, request, featureNames.webrec),
    ),
    recognitionStrings: strings.recognition,
  };
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

/**
 * Lyrics that follow the song are interactive, and an AMP document is cached for an hour: the AMP
 * page shows the plain text.
 */
export const ampView: AmpView<typeof loader> = ({ data }) => {
  const { lyrics } = data.page;
  return <TrackView page={{ ...data.page, lyrics: lyrics && { ...lyrics, synced: undefined } }} />;
};

export default function TrackRoute() {
  const { page, strings, connectStrings, listen, recognitionStrings } = useLoaderData<typeof loader>();
  usePageStrings("connect", connectStrings);
  const { t } = usePageStrings("recognition", recognitionStrings);
  const { t: track } = usePageStrings("track", strings);
  return (
    <PlaybackProvider key={page.key} entries={page.playlist}>
      <PrimitivesProvider primitives={playbackPrimitives}>
        <TrackView
          page={page}
          connection={<StreamingConnection />}
          shareMenu={
            <MenuButton
              className="button button--light track-hero__share"
              label={track("share")}
              items={[
                { label: track("shareTwitter"), href: page.share.twitter, newWindow: true },
                { label: track("shareEmail"), href: page.share.email },
              ]}
            />
          }
          videoPlay={
            page.video ? (
              <VideoPlay
                video={page.video}
                title={page.title}
                trackKey={page.key}
                label={track("video.play", { title: page.title })}
              />
            ) : undefined
          }
          listen={
            <section className="recognition recognition--compact" aria-labelledby="track-listen-title">
              <h2 id="track-listen-title">{t("trackTitle")}</h2>
              <RecognitionPanel {...listen} screenname="track" strings={recognitionStrings} />
            </section>
          }
        />
      </PrimitivesProvider>
    </PlaybackProvider>
  );
}
