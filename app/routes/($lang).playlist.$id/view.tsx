import { CatalogueItemLayout } from "#app/catalogue/catalogue-item-page.tsx";
import type { PlaylistPage } from "#app/catalogue/catalogue-items.server.ts";
import { useTranslation } from "#app/shell/strings.ts";

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
