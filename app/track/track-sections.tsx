import type { ReactNode } from "react";
import { Cover, TrackList } from "#app/catalogue/track-list.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { DemoBadge } from "#app/ui/demo-badge.tsx";
import { LabelledSection } from "#app/ui/labelled-section.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { TrackPage } from "./track.server";

/** The artist's picture in the artist card. */
const avatarSize = 72;

/** Spec 001 §3 stores and streams, in the visitor's platform's order. */
export function StoreLinks({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  const { Link } = usePrimitives();
  if (page.stores.length === 0) return null;
  return (
    <LabelledSection id="track-stores-title" heading={t("listenOn")}>
      <ul className="store-links" data-platform={page.platform}>
        {page.stores.map((store) => (
          <li key={store.name}>
            <Link
              className="store-link"
              href={store.href}
              external
              data={{ store: store.name }}
              label={t("openIn", { title: page.title, store: store.label })}
            >
              {store.label}
            </Link>
          </li>
        ))}
      </ul>
    </LabelledSection>
  );
}

/** Spec 002 §9 "Share options: twitter and email". */
export function ShareLinks({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  const { Link } = usePrimitives();
  return (
    <LabelledSection id="track-share-title" heading={t("share")}>
      <ul className="store-links">
        <li>
          <Link className="store-link" href={page.share.twitter} newWindow>
            {t("shareTwitter")}
          </Link>
        </li>
        <li>
          <Link className="store-link" href={page.share.email}>
            {t("shareEmail")}
          </Link>
        </li>
      </ul>
    </LabelledSection>
  );
}

/** The rest of the page's playlist: each row plays in turn after the main track. */
export function RelatedTracks({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  const { Link, PlayControl } = usePrimitives();
  if (page.related.length === 0) return null;
  return (
    <LabelledSection id="track-related-title" heading={t("related")}>
      <ol className="track-list" aria-labelledby="track-related-title">
        {page.related.map((track) => {
          const entry = track.playlistIndex === undefined ? undefined : page.playlist[track.playlistIndex];
          return (
            <li className="track-row track-row--playable" key={track.key}>
              <Cover image={track.cover} />
              <span className="track-row__body">
                <Link className="track-row__title" href={track.href}>
                  {track.title}
                </Link>
                <span className="track-row__artist">{track.artist}</span>
                {track.count ? (
                  <span className="track-row__note">
                    {t("identified", { count: track.count.total, formatted: track.count.formatted })}
                    {/* A seeded count is said to be one, as on the heading's (decision 032). */}
                    {track.count.demo ? (
                      <>
                        {" "}
                        <DemoBadge>{t("common:demoData")}</DemoBadge>
                      </>
                    ) : null}
                  </span>
                ) : null}
              </span>
              {entry && track.playlistIndex !== undefined ? (
                <PlayControl index={track.playlistIndex} entry={entry} href={track.href} />
              ) : null}
            </li>
          );
        })}
      </ol>
    </LabelledSection>
  );
}

export function ArtistSection({ page }: { page: TrackPage }) {
  const { t } = useTranslation("track");
  const { Link, Image } = usePrimitives();
  const { artist } = page;
  return (
    <LabelledSection id="track-artist-title" heading={t("artist")}>
      <div className="card track-artist">
        <div className="track-artist__head">
          <Image
            className="track-artist__avatar"
            image={artist.avatar}
            width={avatarSize}
            height={avatarSize}
            layout="fixed"
            alt=""
          />
          <p className="track-artist__name">
            <Link href={artist.href}>{artist.name}</Link>
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
            <Link href={artist.href}>{t("artistPage", { artist: artist.name })}</Link>
          </p>
        ) : null}
      </div>
    </LabelledSection>
  );
}

/**
 * The track's video, when the data has one: its 520x280 preview image (lazy) and a link to its
 * watch page on the video site; `play` (React pages) puts a play button over the picture.
 */
export function VideoSection({ page, play }: { page: TrackPage; play?: ReactNode }) {
  const { t } = useTranslation("track");
  const { Link, Image } = usePrimitives();
  const { video } = page;
  if (!video) return null;
  return (
    <LabelledSection
      id="track-video-title"
      heading={video.artTrack ? t("video.artTrack") : t("video.musicVideo")}
      className="section video-preview"
    >
      <div className="video-preview__picture">
        <Image
          image={video.image}
          width={520}
          height={280}
          layout="responsive"
          alt=""
          className="video-preview__image"
        />
        {play}
      </div>
      <p>
        <Link href={video.watch} newWindow>
          {t("video.watch", { title: page.title })}
        </Link>
      </p>
      {video.artTrack ? (
        <p className="video-preview__note">{t("video.artTrackNote", { title: page.title })}</p>
      ) : null}
    </LabelledSection>
  );
}

/**
 * Who performed and wrote the song (spec 001 §7 songs/{id}/credits, the category named in the
 * page's language when it is one we know), the recording's free licence and its Debian package.
 */
export function Credits({ page }: { page: TrackPage }) {
  const { t, strings } = useTranslation("track");
  const { Link } = usePrimitives();
  const { credits } = page;
  return (
    <section className="track-credits" aria-labelledby="track-credits-title">
      <h2 id="track-credits-title" className="visually-hidden">
        {t("credits")}
      </h2>
      {credits.people.length > 0 ? (
        <dl className="track-credits__people">
          {credits.people.map((category) => (
            <div key={category.kind}>
              <dt>
                {strings.exists(`creditKinds.${category.kind}`, "track")
                  ? t(`creditKinds.${category.kind}`)
                  : category.title}
              </dt>
              <dd>{category.names.join(", ")}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p>
        {t("licence", { licence: credits.licence })}
        {" · "}
        {t("source")}{" "}
        <Link href={credits.packageHref} external>
          {credits.package} {credits.version}
        </Link>
      </p>
      <p>© {credits.copyright}</p>
    </section>
  );
}
