import { ItemAside, ItemHero, ItemTiles, ItemTracks } from "~/components/catalogue-item";
import { usePrimitives } from "~/components/primitives";
import type { AlbumPage } from "~/data/catalogue-items.server";
import { useTranslation } from "~/strings";

/** The album page: heading, songs, notes, where to listen, sharing, credits, the playlists it is in. */
export function AlbumView({ page, canonical }: { page: AlbumPage; canonical: string }) {
  const { t } = useTranslation("catalogue");
  const { Link } = usePrimitives();
  const { credits } = page;
  return (
    <article className="item-page">
      <ItemHero
        eyebrow={page.kindLabel}
        name={page.name}
        byline={page.artist.href ? <Link href={page.artist.href}>{page.artist.name}</Link> : page.artist.name}
        artwork={page.artwork}
        background={page.background}
        facts={page.facts}
      />
      <div className="item-layout">
        <div className="item-layout__main">
          <ItemTracks tracks={page.tracks} playlist={page.playlist} />
        </div>
        <aside className="item-layout__side">
          <ItemAside
            kind="album"
            notes={page.notes}
            listenHref={page.listenHref}
            canonical={canonical}
            share={page.share}
          />
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
        </aside>
      </div>
      <ItemTiles id="item-featured-in" heading={t("featuredIn")} tiles={page.featuredIn} />
    </article>
  );
}
