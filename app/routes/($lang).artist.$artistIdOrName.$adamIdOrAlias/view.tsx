import type { ArtistPage } from "#app/artist/artist.server.ts";
import { ArtistHeader } from "#app/artist/artist-header.tsx";
import { ArtistTiles } from "#app/artist/artist-tiles.tsx";
import { LatestRelease } from "#app/artist/latest-release.tsx";
import { TrackList } from "#app/catalogue/track-list.tsx";
import { ShareLinks } from "#app/charts/share-links.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";

/** A bio longer than about three lines of a phone is folded to three (spec 002 §2 show more / less). */
const foldedBioCharacters = 160;

/** The artist page: heading, top songs, about, latest release, sharing, then the tiles. */
export function ArtistView({ page, canonical }: { page: ArtistPage; canonical: string }) {
  const { t } = useTranslation("artist");
  const { Link, ShowMore } = usePrimitives();
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
              <ShowMore long={artist.bio.length > foldedBioCharacters} fold="text" lines={3}>
                <p>{artist.bio}</p>
              </ShowMore>
            </section>
          ) : null}
        </div>
        <aside className="artist-layout__side">
          {page.latestRelease ? <LatestRelease release={page.latestRelease} /> : null}
          {page.concerts ? (
            <p className="card artist-concerts">
              <Link href={page.concerts.href}>{t("upcomingConcerts", { count: page.concerts.count })}</Link>
            </p>
          ) : null}
          <ShareLinks
            className="card"
            url={canonical}
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
