import { ItemAside, ItemHero, ItemTracks } from "~/components/catalogue-item";
import type { PlaylistPage } from "~/data/catalogue-items.server";
import { useTranslation } from "~/strings";

/** The playlist page: heading, songs, what it is about, where to listen, sharing. */
export function PlaylistView({ page, canonical }: { page: PlaylistPage; canonical: string }) {
  const { t } = useTranslation("catalogue");
  return (
    <article className="item-page">
      <ItemHero
        eyebrow={page.kindLabel}
        name={page.name}
        byline={t("curatedBy", { curator: page.curator })}
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
            kind="playlist"
            notes={page.notes}
            listenHref={page.listenHref}
            canonical={canonical}
            share={page.share}
          />
        </aside>
      </div>
    </article>
  );
}
