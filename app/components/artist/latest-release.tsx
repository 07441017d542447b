import { useTranslation } from "react-i18next";
import type { ArtistRelease } from "~/data/artist.server";

/** The artist's latest release (spec 001 §3 view latest-release). */
export function LatestRelease({ release }: { release: ArtistRelease }) {
  const { t } = useTranslation("artist");
  return (
    <section className="latest-release card" aria-labelledby="artist-latest">
      <h2 id="artist-latest">{t("latestRelease")}</h2>
      <div className="latest-release__body">
        {release.image ? (
          <img
            className="latest-release__cover"
            src={release.image.src}
            srcSet={release.image.srcSet}
            sizes="120px"
            width={120}
            height={120}
            alt=""
            decoding="async"
          />
        ) : null}
        <div>
          <p className="latest-release__title">{release.title}</p>
          <p className="muted">
            {t("released", { date: release.releaseDateLabel })}
            <br />
            {t("trackCount", { count: release.trackCount })}
          </p>
          <a href={release.href} rel="noopener noreferrer">
            {t("listen")}
          </a>
        </div>
      </div>
    </section>
  );
}
