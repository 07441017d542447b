import { CatalogueItemLayout } from "~/components/catalogue-item-page";
import type { PlaylistPage } from "~/data/catalogue-items.server";
import { useTranslation } from "~/strings";

/** The playlist page: heading, songs, what it is about, where to listen, sharing. */
export function PlaylistView({ page, canonical }: { page: PlaylistPage; canonical: string }) {
  const { t } = useTranslation("catalogue");
  return (
    <CatalogueItemLayout
      kind="playlist"
      page={page}
      canonical={canonical}
      byline={t("curatedBy", { curator: page.curator })}
    />
  );
}
