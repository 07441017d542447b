import { LabelledSection } from "#app/ui/labelled-section.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { ArtistTile } from "./artist.server";

/** Albums, playlists and similar artists as square tiles, each opening its page of ours. */
export function ArtistTiles({
  id,
  heading,
  tiles,
  round = false,
}: {
  id: string;
  heading: string;
  tiles: readonly ArtistTile[];
  round?: boolean;
}) {
  const { Link, Image } = usePrimitives();
  if (tiles.length === 0) return null;
  return (
    <LabelledSection id={id} heading={heading}>
      <ul className={round ? "tile-grid artist-tiles artist-tiles--round" : "tile-grid artist-tiles"}>
        {tiles.map((tile) => (
          <li className="tile" key={tile.key}>
            <Link href={tile.href}>
              {tile.image ? (
                <Image
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
            </Link>
          </li>
        ))}
      </ul>
    </LabelledSection>
  );
}
