import { useTranslation } from "#app/shell/strings.ts";
import { LabelledSection } from "#app/ui/labelled-section.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { ArtistRelease } from "./artist.server";

/** The latest release's cover. */
const coverSize = 120;

/** The artist's latest release (spec 001 §3 view latest-release). */
export function LatestRelease({ release }: { release: ArtistRelease }) {
  const { t } = useTranslation("artist");
  const { Link, Image } = usePrimitives();
  return (
    <LabelledSection id="artist-latest" heading={t("latestRelease")} className="latest-release card">
      <div className="latest-release__body">
        <Image
          className="latest-release__cover"
          image={release.image}
          width={coverSize}
          height={coverSize}
          layout="fixed"
          alt=""
        />
        <div>
          <p className="latest-release__title">
            <Link href={release.href}>{release.title}</Link>
          </p>
          <p className="muted">
            {t("released", { date: release.releaseDateLabel })}
            <br />
            {t("trackCount", { count: release.trackCount })}
          </p>
          <Link href={release.listenHref} external>
            {t("listen")}
          </Link>
        </div>
      </div>
    </LabelledSection>
  );
}
