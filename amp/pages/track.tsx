import { TrackCount, TrackFacts } from "../../app/components/track/track-facts";
import { loadTrackPage, loadTrackPath, type TrackPage, trackPageMeta } from "../../app/data/track.server";
import { AmpImg, AmpLink, AmpTrackList, listCoverSize } from "../components";
import { type AmpPageRenderer, ampPathOf } from "../page";
import { safeColour } from "../safe";
import { ampTranslator, type Translate } from "../strings";

/** The cover in the heading: its box (`.track-hero__cover`) is 200px on phones, 248px above. */
const heroCoverSize = 248;
/** The artist's picture in the artist card. */
const avatarSize = 72;

/**
 * The track page, `/track/{key}/{alias}`; `/track/{key}` and a wrong alias move to the track's one
 * address, as the React routes do (app/routes/($lang).track.$key*.tsx), with the query kept.
 */
export const trackAmpPage: AmpPageRenderer = async ({ context, request, url, now }) => {
  const [, keySegment, alias, ...rest] = context.edge.path.segments;
  if (keySegment === undefined || rest.length > 0) return undefined;
  if (alias === undefined) {
    const path = await loadTrackPath(context, keySegment, url.searchParams);
    return { kind: "redirect", location: `${ampPathOf(path)}${url.search}` };
  }
  const page = await loadTrackPage(context, {
    keySegment,
    search: url.searchParams,
    userAgent: request.headers.get("user-agent"),
    origin: url.origin,
    now,
  });
  if (keySegment !== page.key || alias !== page.alias) {
    return { kind: "redirect", location: `${ampPathOf(page.path)}${url.search}` };
  }

  const t = ampTranslator(context.edge.lang, ["track"]);
  const meta = trackPageMeta(page, context, request, t);
  return {
    kind: "page",
    t,
    content: { meta, stylesheets: ["track"], body: <TrackBody page={page} t={t} /> },
  };
};

function PlayIcon() {
  return (
    <svg
      className="play-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M8 5v14l11-7z" fill="currentColor" />
    </svg>
  );
}

/**
 * The React track page's markup. Playing needs the page's player, so every play button is a link
 * to the song's interactive page; the lyrics are the plain text (following them in time is
 * interactive too).
 */
export function TrackBody({ page, t }: { page: TrackPage; t: Translate }) {
  const background = safeColour(page.background);
  const names = { title: page.title, artist: page.artist.name };
  return (
    <article className="track-page">
      <section
        className="track-hero"
        style={background ? { ["--track-bg" as string]: background } : undefined}
        aria-labelledby="track-title"
      >
        <div className="track-hero__cover">
          <AmpImg
            image={page.cover}
            width={heroCoverSize}
            height={heroCoverSize}
            layout="responsive"
            sizes="(max-width: 649px) 200px, 248px"
            alt={t("track:coverAlt", names)}
          />
        </div>
        <div className="track-hero__text">
          {page.isNewRelease ? <p className="track-hero__badge">{t("common:newRelease")}</p> : null}
          <h1 id="track-title" className="track-hero__title">
            {page.title}
          </h1>
          <p className="track-hero__artist">
            <AmpLink href={page.artist.href}>{page.artist.name}</AmpLink>
          </p>
          <TrackFacts details={page.details} t={t} />
          {page.count ? <TrackCount count={page.count} t={t} /> : null}
          {page.mainIndex !== undefined ? (
            <AmpLink className="button button--light play-button play-button--main" href={page.path}>
              <PlayIcon />
              <span>{t("track:playPreview")}</span>
            </AmpLink>
          ) : null}
        </div>
      </section>
      <div className="track-columns">
        <div className="track-columns__listen">
          {page.stores.length > 0 ? (
            <section className="section" aria-labelledby="track-stores-title">
              <h2 id="track-stores-title">{t("track:listenOn")}</h2>
              <ul className="store-links">
                {page.stores.map((store) => (
                  <li key={store.name}>
                    <AmpLink
                      className="store-link"
                      href={store.href}
                      external
                      label={t("track:openIn", { title: page.title, store: store.label })}
                    >
                      {store.label}
                    </AmpLink>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section className="section" aria-labelledby="track-share-title">
            <h2 id="track-share-title">{t("track:share")}</h2>
            <ul className="store-links">
              <li>
                <AmpLink className="store-link" href={page.share.twitter} newWindow>
                  {t("track:shareTwitter")}
                </AmpLink>
              </li>
              <li>
                <AmpLink className="store-link" href={page.share.email}>
                  {t("track:shareEmail")}
                </AmpLink>
              </li>
            </ul>
          </section>
        </div>
        <div className="track-columns__main">
          {page.lyrics ? <LyricsSection lyrics={page.lyrics} t={t} /> : null}
          {page.video ? (
            <section className="section" aria-labelledby="track-video-title">
              <h2 id="track-video-title">{t("track:video")}</h2>
              <p className="card">
                <AmpLink href={page.video} newWindow>
                  {t("track:watchVideo", { title: page.title })}
                </AmpLink>
              </p>
            </section>
          ) : null}
          <RelatedSection page={page} t={t} />
        </div>
        <div className="track-columns__artist">
          <ArtistCard page={page} t={t} />
        </div>
      </div>
      <section className="track-credits" aria-labelledby="track-credits-title">
        <h2 id="track-credits-title" className="visually-hidden">
          {t("track:credits")}
        </h2>
        <p>
          {t("track:licence", { licence: page.credits.licence })}
          {" · "}
          {t("track:source")}{" "}
          <AmpLink href={page.credits.packageHref} external>
            {page.credits.package} {page.credits.version}
          </AmpLink>
        </p>
        <p>© {page.credits.copyright}</p>
      </section>
    </article>
  );
}

function LyricsSection({ lyrics, t }: { lyrics: NonNullable<TrackPage["lyrics"]>; t: Translate }) {
  return (
    <section className="section track-lyrics" aria-labelledby="track-lyrics-title">
      <div className="section__head">
        <h2 id="track-lyrics-title">{t("track:lyrics")}</h2>
        {lyrics.demo ? <span className="track-badge">{t("track:demoLyrics")}</span> : null}
      </div>
      <div className="card">
        <p className="track-lyrics__text">
          {lyrics.lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines repeat (choruses); their place is their identity
            <span key={index} className="track-lyrics__line">
              {line}
            </span>
          ))}
        </p>
        <footer className="track-lyrics__footer">
          <p>{lyrics.footer}</p>
          <p>{t("track:lyricsProvider", { provider: lyrics.provider })}</p>
        </footer>
      </div>
    </section>
  );
}

function RelatedSection({ page, t }: { page: TrackPage; t: Translate }) {
  if (page.related.length === 0) return null;
  return (
    <section className="section" aria-labelledby="track-related-title">
      <h2 id="track-related-title">{t("track:related")}</h2>
      <ol className="track-list" aria-labelledby="track-related-title">
        {page.related.map((track) => (
          <li className="track-row track-row--playable" key={track.key}>
            <AmpImg
              image={track.cover}
              width={listCoverSize}
              height={listCoverSize}
              layout="fixed"
              alt=""
              className="track-row__cover"
              placeholder
            />
            <span className="track-row__body">
              <AmpLink className="track-row__title" href={track.href}>
                {track.title}
              </AmpLink>
              <span className="track-row__artist">{track.artist}</span>
            </span>
            {track.playlistIndex !== undefined ? (
              <AmpLink className="play-button" href={track.href}>
                <PlayIcon />
                <span className="visually-hidden">{t("track:play", { title: track.title })}</span>
              </AmpLink>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function ArtistCard({ page, t }: { page: TrackPage; t: Translate }) {
  const { artist } = page;
  const topSongs = t("track:topSongs", { artist: artist.name });
  return (
    <section className="section" aria-labelledby="track-artist-title">
      <h2 id="track-artist-title">{t("track:artist")}</h2>
      <div className="card track-artist">
        <div className="track-artist__head">
          <AmpImg
            image={artist.avatar}
            width={avatarSize}
            height={avatarSize}
            layout="fixed"
            alt=""
            className="track-artist__avatar"
          />
          <p className="track-artist__name">
            <AmpLink href={artist.href}>{artist.name}</AmpLink>
          </p>
        </div>
        {artist.topSongs.length > 0 ? (
          <>
            <h3 className="track-artist__songs">{topSongs}</h3>
            <AmpTrackList tracks={artist.topSongs} ranked={false} label={topSongs} t={t} />
          </>
        ) : null}
        {artist.href ? (
          <p className="track-artist__more">
            <AmpLink href={artist.href}>{t("track:artistPage", { artist: artist.name })}</AmpLink>
          </p>
        ) : null}
      </div>
    </section>
  );
}
