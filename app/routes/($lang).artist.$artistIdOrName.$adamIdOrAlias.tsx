import {
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ArtistHeader } from "~/components/artist/artist-header";
import { ArtistTiles } from "~/components/artist/artist-tiles";
import { LatestRelease } from "~/components/artist/latest-release";
import { ShareLinks } from "~/components/charts/share-links";
import { TrackList } from "~/components/track-list";
import {
  artistPageMeta,
  featureOptionsOf,
  isAdamIdRouteOn,
  isCanonicalArtistPath,
  loadArtistPage,
  parseArtistRoute,
} from "~/data/artist.server";
import { loadPage, requireKnownLanguage } from "~/http.server";
import { createI18n, pickResources } from "~/i18n.server";
import { pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import artistStyles from "~/styles/artist.css";
import { SiteError } from "../../edge/errors";

// Spec 001 §2 `/artist/{artistIdOrName}/{adamIdOrAlias}`, also `/artist/-/{id}`.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: artistStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { edge } = context;
  const requested = {
    artistIdOrName: params.artistIdOrName ?? "",
    adamIdOrAlias: params.adamIdOrAlias ?? "",
  };
  const page = await loadPage(async () => {
    const adamIdRoute = await isAdamIdRouteOn(context, featureOptionsOf(context, request));
    const route = parseArtistRoute(requested.artistIdOrName, requested.adamIdOrAlias, adamIdRoute);
    if (!route)
      throw new SiteError(
        "notfound",
        `no artist at /artist/${requested.artistIdOrName}/${requested.adamIdOrAlias}`,
      );
    return loadArtistPage(context, route, { adamIdRoute }, new Date());
  });
  // Every form of the address moves to the artist's one canonical URL.
  if (!isCanonicalArtistPath(requested, page)) {
    throw redirect(
      `${params.lang ? `/${params.lang}` : ""}${page.artist.path}${new URL(request.url).search}`,
      301,
    );
  }
  const { t } = createI18n(edge.lang, ["common", "artist"]);
  const meta = artistPageMeta(page, context, request, t);
  return { page, meta, strings: pickResources(edge.lang, ["artist"]).artist };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function ArtistRoute() {
  const { page, meta, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("artist", strings);
  const { artist } = page;
  return (
    <article className="artist-page">
      <ArtistHeader artist={artist} />
      <div className="artist-layout">
        <div className="artist-layout__main">
          {page.topSongs.length > 0 ? (
            <section className="section" aria-labelledby="artist-top-songs">
              <h2 id="artist-top-songs">{t("topSongs")}</h2>
              <TrackList tracks={page.topSongs} label={t("topSongs")} />
            </section>
          ) : null}
          {artist.bio ? (
            <section className="section artist-bio" aria-labelledby="artist-about">
              <h2 id="artist-about">{t("about", { name: artist.name })}</h2>
              <p>{artist.bio}</p>
            </section>
          ) : null}
        </div>
        <aside className="artist-layout__side">
          {page.latestRelease ? <LatestRelease release={page.latestRelease} /> : null}
          <ShareLinks
            className="card"
            url={meta.canonical}
            subject={artist.share.subject}
            text={artist.share.text}
            labels={{ heading: t("share.heading"), twitter: t("share.twitter"), email: t("share.email") }}
          />
        </aside>
      </div>
      <ArtistTiles id="artist-albums" heading={t("albums", { name: artist.name })} tiles={page.albums} />
      <ArtistTiles id="artist-appears-on" heading={t("appearsOn")} tiles={page.appearsOn} />
      <ArtistTiles
        id="artist-playlists"
        heading={t("playlists", { name: artist.name })}
        tiles={page.playlists}
      />
      <ArtistTiles id="artist-similar" heading={t("similarArtists")} tiles={page.similarArtists} round />
    </article>
  );
}
