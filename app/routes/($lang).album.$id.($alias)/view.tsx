import { ItemTiles } from "#app/catalogue/catalogue-item.tsx";
import { CatalogueItemLayout } from "#app/catalogue/catalogue-item-page.tsx";
import type { AlbumPage } from "#app/catalogue/catalogue-items.server.ts";
import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";

/** The album page: heading, songs, notes, where to listen, sharing, credits, the playlists it is in. */
export function AlbumView({ page, canonical }: { page: AlbumPage; canonical: string }) {
  const { t } = useTranslation("catalogue");
  const { Link } = usePrimitives();
  const { credits } = page;
  return (
    <CatalogueItemLayout
      kind="album"
      page={page}
      canonical={canonical}
      byline={page.artist.href ? <Link href={page.artist.href}>{page.artist.name}</Link> : page.artist.name}
      side={
        <section className="card item-credits" aria-labelledby="item-credits">
          <h2 id="item-credits">{t("credits")}</h2>
          <dl>
            <dt>{t("released")}</dt>
            <dd>{credits.released}</dd>
            {credits.genre ? (
              <>
                <dt>{t("genre")}</dt>
                <dd>{credits.genre}</dd>
              </>
            ) : null}
            {credits.label ? (
              <>
                <dt>{t("label")}</dt>
                <dd>{credits.label}</dd>
              </>
            ) : null}
            <dt>{t("copyright")}</dt>
            <dd>{credits.copyright}</dd>
          </dl>
        </section>
      }
    >
      <ItemTiles id="item-featured-in" heading={t("featuredIn")} tiles={page.featuredIn} />
    </CatalogueItemLayout>
  );
}
