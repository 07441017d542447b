import { ShareLinks } from "../../app/components/charts/share-links";
import {
  type ArtistPage,
  type ArtistRelease,
  type ArtistTile,
  artistPageMeta,
  featureOptionsOf,
  isAdamIdRouteOn,
  isCanonicalArtistPath,
  loadArtistPage,
  parseArtistRoute,
} from "../../app/data/artist.server";
import { SiteError } from "../../edge/errors";
import { AmpImg, AmpLink, AmpTrackList } from "../components";
import { type AmpPageRenderer, ampLocationOf } from "../page";
import { safeColour } from "../safe";
import { ampTranslator, type Translate } from "../strings";

/** The picture in the heading: its box (`.artist-hero__avatar`) is 128px, 200px on desktops. */
const avatarSize = 200;
/** The latest release's cover. */
const releaseCoverSize = 120;

/**
 * The artist page, `/artist/{artistIdOrName}/{adamIdOrAlias}` and `/artist/-/{id}`, as the React
 * route answers it (app/routes/($lang).artist.$artistIdOrName.$adamIdOrAlias.tsx): every other form
 * of the address moves to the artist's one address, query kept.
 */
export const artistAmpPage: AmpPageRenderer = async ({ context, request, url, now }) => {
  const { edge } = context;
  const [, artistIdOrName, adamIdOrAlias, ...rest] = edge.path.segments;
  if (artistIdOrName === undefined || adamIdOrAlias === undefined || rest.length > 0) return undefined;
  const requested = { artistIdOrName, adamIdOrAlias };
  const adamIdRoute = await isAdamIdRouteOn(context, featureOptionsOf(context, request));
  const route = parseArtistRoute(artistIdOrName, adamIdOrAlias, adamIdRoute);
  if (!route) throw new SiteError("notfound", `no artist at /artist/${artistIdOrName}/${adamIdOrAlias}`);
  const page = await loadArtistPage(context, route, { adamIdRoute }, now);
  if (!isCanonicalArtistPath(requested, page)) {
    return { kind: "redirect", location: `${ampLocationOf(edge, page.artist.path)}${url.search}` };
  }

  const t = ampTranslator(edge.lang, ["artist"]);
  const meta = artistPageMeta(page, context, request, t);
  return {
    kind: "page",
    t,
    content: {
      meta,
      stylesheets: ["artist"],
      body: <ArtistBody page={page} canonical={meta.canonical} t={t} />,
    },
  };
};

/** The React artist page's markup. */
export function ArtistBody({ page, canonical, t }: { page: ArtistPage; canonical: string; t: Translate }) {
  const { artist } = page;
  const background = safeColour(artist.background);
  const facts = [
    artist.genre,
    artist.origin ? t("artist:origin", { origin: artist.origin }) : undefined,
    artist.bornOrFormed ? t("artist:bornOrFormed", { date: artist.bornOrFormed }) : undefined,
  ].filter((fact): fact is string => Boolean(fact));
  return (
    <article className="artist-page">
      <header
        className="artist-hero"
        style={background ? { ["--artist-background" as string]: background } : undefined}
      >
        <div className="artist-hero__avatar">
          <AmpImg
            image={artist.avatar}
            width={avatarSize}
            height={avatarSize}
            layout="responsive"
            sizes="(min-width: 800px) 200px, 128px"
            alt={t("artist:avatarAlt", { name: artist.name })}
          />
        </div>
        <div className="artist-hero__text">
          <p className="artist-hero__eyebrow">{t("artist:eyebrow")}</p>
          <h1 className="artist-hero__name">{artist.name}</h1>
          {facts.length > 0 ? (
            <ul className="artist-hero__facts">
              {facts.map((fact) => (
                <li key={fact}>{fact}</li>
              ))}
            </ul>
          ) : null}
        </div>
      </header>
      <div className="artist-layout">
        <div className="artist-layout__main">
          {page.topSongs.length > 0 ? (
            <section className="section" aria-labelledby="artist-top-songs">
              <h2 id="artist-top-songs">{t("artist:topSongs")}</h2>
              <AmpTrackList tracks={page.topSongs} label={t("artist:topSongs")} t={t} />
            </section>
          ) : null}
          {artist.bio ? (
            <section className="section artist-bio" aria-labelledby="artist-about">
              <h2 id="artist-about">{t("artist:about", { name: artist.name })}</h2>
              <p>{artist.bio}</p>
            </section>
          ) : null}
        </div>
        <aside className="artist-layout__side">
          {page.latestRelease ? <LatestRelease release={page.latestRelease} t={t} /> : null}
          <ShareLinks
            url={canonical}
            subject={artist.share.subject}
            text={artist.share.text}
            labels={{
              heading: t("artist:share.heading"),
              twitter: t("artist:share.twitter"),
              email: t("artist:share.email"),
            }}
          />
        </aside>
      </div>
      <ArtistTiles
        id="artist-albums"
        heading={t("artist:albums", { name: artist.name })}
        tiles={page.albums}
        t={t}
      />
      <ArtistTiles id="artist-appears-on" heading={t("artist:appearsOn")} tiles={page.appearsOn} t={t} />
      <ArtistTiles
        id="artist-playlists"
        heading={t("artist:playlists", { name: artist.name })}
        tiles={page.playlists}
        t={t}
      />
      <ArtistTiles
        id="artist-similar"
        heading={t("artist:similarArtists")}
        tiles={page.similarArtists}
        round
        t={t}
      />
    </article>
  );
}

function LatestRelease({ release, t }: { release: ArtistRelease; t: Translate }) {
  return (
    <section className="latest-release card" aria-labelledby="artist-latest">
      <h2 id="artist-latest">{t("artist:latestRelease")}</h2>
      <div className="latest-release__body">
        <AmpImg
          image={release.image}
          width={releaseCoverSize}
          height={releaseCoverSize}
          layout="fixed"
          sizes={`${releaseCoverSize}px`}
          alt=""
          className="latest-release__cover"
        />
        <div>
          <p className="latest-release__title">{release.title}</p>
          <p className="muted">
            {t("artist:released", { date: release.releaseDateLabel })}
            <br />
            {t("artist:trackCount", { count: release.trackCount })}
          </p>
          <AmpLink href={release.href} external>
            {t("artist:listen")}
          </AmpLink>
        </div>
      </div>
    </section>
  );
}

/** The React `ArtistTiles`: albums and playlists open in the streaming service, artists here. */
function ArtistTiles({
  id,
  heading,
  tiles,
  round = false,
  t,
}: {
  id: string;
  heading: string;
  tiles: readonly ArtistTile[];
  round?: boolean;
  t: Translate;
}) {
  if (tiles.length === 0) return null;
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      <ul className={round ? "tile-grid artist-tiles artist-tiles--round" : "tile-grid artist-tiles"}>
        {tiles.map((tile) => (
          <li className="tile" key={tile.key}>
            <AmpLink href={tile.href} external={tile.external}>
              {tile.image ? (
                <AmpImg
                  image={tile.image}
                  width={tile.image.width}
                  height={tile.image.height}
                  layout="responsive"
                  sizes="(min-width: 800px) 200px, (min-width: 650px) 33vw, 50vw"
                  alt=""
                />
              ) : (
                <span className="artist-tiles__placeholder" aria-hidden="true" />
              )}
              <span className="tile__title">{tile.title}</span>
              {tile.subtitle ? <span className="tile__subtitle">{tile.subtitle}</span> : null}
              {tile.external ? (
                <span className="visually-hidden"> ({t("artist:opensExternally")})</span>
              ) : null}
            </AmpLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
