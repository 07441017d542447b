import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Cover, TrackList } from "~/components/track-list";
import type { TrackPage } from "~/data/track.server";
import { PlayButton } from "./playback";

/** Spec 001 §3 stores and streams, in the visitor's platform's order. */
export function StoreLinks({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  if (page.stores.length === 0) return null;
  return (
    <section className="section" aria-labelledby="track-stores-title">
      <h2 id="track-stores-title">{t("listenOn")}</h2>
      <ul className="store-links" data-platform={page.platform}>
        {page.stores.map((store) => (
          <li key={store.name}>
            <a
              className="store-link"
              href={store.href}
              data-store={store.name}
              rel="noopener noreferrer"
              aria-label={t("openIn", { title: page.title, store: store.label })}
            >
              {store.label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Spec 002 §9 "Share options: twitter and email". */
export function ShareLinks({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  return (
    <section className="section" aria-labelledby="track-share-title">
      <h2 id="track-share-title">{t("share")}</h2>
      <ul className="store-links">
        <li>
          <a className="store-link" href={page.share.twitter} target="_blank" rel="noopener noreferrer">
            {t("shareTwitter")}
          </a>
        </li>
        <li>
          <a className="store-link" href={page.share.email}>
            {t("shareEmail")}
          </a>
        </li>
      </ul>
    </section>
  );
}

/** The rest of the page's playlist: each row plays in turn after the main track. */
export function RelatedTracks({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  if (page.related.length === 0) return null;
  return (
    <section className="section" aria-labelledby="track-related-title">
      <h2 id="track-related-title">{t("related")}</h2>
      <ol className="track-list" aria-labelledby="track-related-title">
        {page.related.map((track) => {
          const entry = track.playlistIndex === undefined ? undefined : page.playlist[track.playlistIndex];
          return (
            <li className="track-row track-row--playable" key={track.key}>
              <Cover image={track.cover} size={56} />
              <span className="track-row__body">
                <Link className="track-row__title" to={track.href}>
                  {track.title}
                </Link>
                <span className="track-row__artist">{track.artist}</span>
              </span>
              {entry && track.playlistIndex !== undefined ? (
                <PlayButton index={track.playlistIndex} entry={entry} />
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export function ArtistSection({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  const { artist } = page;
  return (
    <section className="section" aria-labelledby="track-artist-title">
      <h2 id="track-artist-title">{t("artist")}</h2>
      <div className="card track-artist">
        <div className="track-artist__head">
          {artist.avatar ? (
            <img
              className="track-artist__avatar"
              src={artist.avatar.src}
              srcSet={artist.avatar.srcSet}
              sizes="72px"
              width={72}
              height={72}
              alt=""
              loading="lazy"
              decoding="async"
            />
          ) : null}
          <p className="track-artist__name">
            {artist.href ? <Link to={artist.href}>{artist.name}</Link> : artist.name}
          </p>
        </div>
        {artist.topSongs.length > 0 ? (
          <>
            <h3 className="track-artist__songs">{t("topSongs", { artist: artist.name })}</h3>
            <TrackList
              tracks={artist.topSongs}
              ranked={false}
              label={t("topSongs", { artist: artist.name })}
            />
          </>
        ) : null}
        {artist.href ? (
          <p className="track-artist__more">
            <Link to={artist.href}>{t("artistPage", { artist: artist.name })}</Link>
          </p>
        ) : null}
      </div>
    </section>
  );
}

/** The track's video, when the data has one: a link to where it plays. */
export function VideoSection({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  if (!page.video) return null;
  return (
    <section className="section" aria-labelledby="track-video-title">
      <h2 id="track-video-title">{t("video")}</h2>
      <p className="card">
        <a href={page.video} rel="noopener noreferrer" target="_blank">
          {t("watchVideo", { title: page.title })}
        </a>
      </p>
    </section>
  );
}

/** The recording's free licence and the Debian package it comes from. */
export function Credits({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  const { credits } = page;
  return (
    <section className="track-credits" aria-labelledby="track-credits-title">
      <h2 id="track-credits-title" className="visually-hidden">
        {t("credits")}
      </h2>
      <p>
        {t("licence", { licence: credits.licence })}
        {" · "}
        {t("source")}{" "}
        <a href={credits.packageHref} rel="noopener noreferrer">
          {credits.package} {credits.version}
        </a>
      </p>
      <p>© {credits.copyright}</p>
    </section>
  );
}
