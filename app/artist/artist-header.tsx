import type { CSSProperties } from "react";
import { useTranslation } from "#app/shell/strings.ts";
import { safeColour } from "#app/shell/view.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { ArtistPage } from "./artist.server";

/** The avatar's box (`.artist-hero__avatar`): 128px, 200px on desktops. */
const avatarSize = 200;
/** The avatar's widths on the page: also what the artist page's preload asks for. */
export const avatarSizes = "(min-width: 800px) 200px, 128px";

/** Avatar, name and facts on the artist's own colour (darkened until white text reads at 4.5:1). */
export function ArtistHeader({ artist }: { artist: ArtistPage["artist"] }) {
  const { t } = useTranslation("artist");
  const { Image } = usePrimitives();
  const background = safeColour(artist.background);
  const facts = [
    artist.genre,
    artist.origin ? t("origin", { origin: artist.origin }) : undefined,
    artist.bornOrFormed ? t("bornOrFormed", { date: artist.bornOrFormed }) : undefined,
  ].filter((fact): fact is string => Boolean(fact));
  return (
    <header
      className="artist-hero"
      style={background ? ({ "--artist-background": background } as CSSProperties) : undefined}
    >
      <Image
        className="artist-hero__avatar"
        image={artist.avatar}
        width={avatarSize}
        height={avatarSize}
        layout="responsive"
        sizes={avatarSizes}
        alt={t("avatarAlt", { name: artist.name })}
        eager
      />
      <div className="artist-hero__text">
        <p className="artist-hero__eyebrow">{t("eyebrow")}</p>
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
  );
}
