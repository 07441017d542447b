import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { Image, TrackSummary } from "~/data/view";

export function Cover({ image, size, alt = "" }: { image: Image | undefined; size: number; alt?: string }) {
  if (!image) return <span className="track-row__cover" aria-hidden="true" />;
  return (
    <img
      className="track-row__cover"
      src={image.src}
      srcSet={image.srcSet}
      sizes={`${size}px`}
      width={size}
      height={size}
      alt={alt}
      loading="lazy"
      decoding="async"
    />
  );
}

/** A ranked list of songs: charts, top songs, search results. */
export function TrackList({
  tracks,
  ranked = true,
  label,
}: {
  tracks: TrackSummary[];
  ranked?: boolean;
  label: string;
}) {
  const { t } = useTranslation("common");
  return (
    <ol className="track-list" aria-label={label}>
      {tracks.map((track, index) => (
        <li className={ranked ? "track-row" : "track-row track-row--unranked"} key={track.key}>
          {ranked ? <span className="track-row__rank">{index + 1}</span> : null}
          <Cover image={track.cover} size={56} />
          <span>
            <Link className="track-row__title" to={track.href}>
              {track.title}
            </Link>
            <span className="track-row__artist">
              {track.artist}
              {track.isNewRelease ? <span className="badge">{t("newRelease")}</span> : null}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Square tiles: new releases, albums, similar artists. */
export function TileGrid({
  items,
  label,
}: {
  items: { key: string; title: string; subtitle?: string; href: string; image: Image | undefined }[];
  label: string;
}) {
  return (
    <ul className="tile-grid" aria-label={label}>
      {items.map((item) => (
        <li className="tile" key={item.key}>
          <Link to={item.href}>
            {item.image ? (
              <img
                src={item.image.src}
                srcSet={item.image.srcSet}
                sizes="(max-width: 650px) 50vw, 200px"
                width={item.image.width}
                height={item.image.height}
                alt=""
                loading="lazy"
                decoding="async"
              />
            ) : null}
            <span className="tile__title">{item.title}</span>
            {item.subtitle ? <span className="tile__subtitle">{item.subtitle}</span> : null}
          </Link>
        </li>
      ))}
    </ul>
  );
}
