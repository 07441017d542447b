import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ArtistTile } from "~/data/artist.server";

/**
 * Albums, playlists and similar artists as square tiles. Albums and playlists open in the
 * streaming service (the site has no album pages); similar artists open their artist page.
 */
export function ArtistTiles({
  id,
  heading,
  tiles,
  round = false,
}: {
  id: string;
  heading: string;
  tiles: ArtistTile[];
  round?: boolean;
}) {
  if (tiles.length === 0) return null;
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      <ul className={round ? "tile-grid artist-tiles artist-tiles--round" : "tile-grid artist-tiles"}>
        {tiles.map((tile) => (
          <li className="tile" key={tile.key}>
            <TileLink tile={tile} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function TileLink({ tile }: { tile: ArtistTile }) {
  const { t } = useTranslation("artist");
  const content = (
    <>
      {tile.image ? (
        <img
          src={tile.image.src}
          srcSet={tile.image.srcSet}
          sizes="(min-width: 800px) 200px, (min-width: 650px) 33vw, 50vw"
          width={tile.image.width}
          height={tile.image.height}
          alt=""
          loading="lazy"
          decoding="async"
        />
      ) : (
        <span className="artist-tiles__placeholder" aria-hidden="true" />
      )}
      <span className="tile__title">{tile.title}</span>
      {tile.subtitle ? <span className="tile__subtitle">{tile.subtitle}</span> : null}
    </>
  );
  if (!tile.external) return <Link to={tile.href}>{content}</Link>;
  return (
    <a href={tile.href} rel="noopener noreferrer">
      {content}
      <span className="visually-hidden"> ({t("opensExternally")})</span>
    </a>
  );
}
