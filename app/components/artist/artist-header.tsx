import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import type { ArtistPage } from "~/data/artist.server";

/** Avatar, name and facts on the artist's own colour (darkened until white text reads at 4.5:1). */
export function ArtistHeader({ artist }: { artist: ArtistPage["artist"] }) {
  const { t } = useTranslation("artist");
  const facts = [
    artist.genre,
    artist.origin ? t("origin", { origin: artist.origin }) : undefined,
    artist.bornOrFormed ? t("bornOrFormed", { date: artist.bornOrFormed }) : undefined,
  ].filter((fact): fact is string => Boolean(fact));
  return (
    <header className="artist-hero" style={{ "--artist-background": artist.background } as CSSProperties}>
      <img
        className="artist-hero__avatar"
        src={artist.avatar.src}
        srcSet={artist.avatar.srcSet}
        sizes="(min-width: 800px) 200px, 128px"
        width={200}
        height={200}
        alt={t("avatarAlt", { name: artist.name })}
        decoding="async"
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
