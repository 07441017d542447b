import { useTranslation } from "#app/shell/strings.ts";
import type { Image, TrackSummary } from "#app/shell/view.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { SearchLyricLine } from "#rules/schemas/search.ts";

/** The size covers are shown at in lists. */
export const listCoverSize = 56;

export function Cover({
  image,
  size = listCoverSize,
  alt = "",
}: {
  image: Image | undefined;
  size?: number;
  alt?: string;
}) {
  const { Image: Picture } = usePrimitives();
  return (
    <Picture
      image={image}
      width={size}
      height={size}
      layout="fixed"
      alt={alt}
      className="track-row__cover"
      placeholder
    />
  );
}

/** A ranked list of songs: charts, top songs, search results. */
export function TrackList({
  tracks,
  ranked = true,
  label,
  rankLabels,
  notes,
  lyricLines,
}: {
  tracks: readonly TrackSummary[];
  ranked?: boolean;
  label: string;
  /** A short note per row, after the artist (a radio chart's plays). */
  notes?: readonly string[];
  /** The lyric line a search found each row by, its matched words marked (search page). */
  lyricLines?: readonly (SearchLyricLine | undefined)[];
  /** Ranks as the page writes them (charts: in the locale's digits); default 1, 2, 3… */
  rankLabels?: readonly string[];
}) {
  const { t } = useTranslation("common");
  const { Link } = usePrimitives();
  return (
    <ol className="track-list" aria-label={label}>
      {tracks.map((track, index) => (
        <li className={ranked ? "track-row" : "track-row track-row--unranked"} key={track.key}>
          {ranked ? <span className="track-row__rank">{rankLabels?.[index] ?? index + 1}</span> : null}
          <Cover image={track.cover} />
          <span>
            <Link className="track-row__title" href={track.href}>
              {track.title}
            </Link>
            <span className="track-row__artist">
              {track.artist}
              {track.isNewRelease ? <span className="badge">{t("newRelease")}</span> : null}
            </span>
            {notes?.[index] ? <span className="track-row__note">{notes[index]}</span> : null}
            {lyricLines?.[index] ? <LyricLine line={lyricLines[index]} /> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** A found lyric line as text, each matched word in a <mark>: React escapes every part. */
function LyricLine({ line }: { line: SearchLyricLine }) {
  return (
    <q className="track-row__lyric">
      {line.parts.map((part, index) =>
        part.matched ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id of their own
          <mark key={index}>{part.text}</mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id of their own
          <span key={index}>{part.text}</span>
        ),
      )}
    </q>
  );
}

export type Tile = {
  key: string;
  title: string;
  subtitle?: string | undefined;
  href: string;
  image: Image | undefined;
  external?: boolean;
};

/** Square tiles: new releases, albums, similar artists. */
export function TileGrid({ items, label }: { items: readonly Tile[]; label: string }) {
  const { Link, Image: Picture } = usePrimitives();
  return (
    <ul className="tile-grid" aria-label={label}>
      {items.map((item) => (
        <li className="tile" key={item.key}>
          <Link href={item.href} external={item.external}>
            <Picture
              image={item.image}
              width={item.image?.width ?? 1}
              height={item.image?.height ?? 1}
              layout="responsive"
              sizes="(max-width: 650px) 50vw, 200px"
              alt=""
            />
            <span className="tile__title">{item.title}</span>
            {item.subtitle ? <span className="tile__subtitle">{item.subtitle}</span> : null}
          </Link>
        </li>
      ))}
    </ul>
  );
}
