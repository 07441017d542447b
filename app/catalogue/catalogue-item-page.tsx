import type { ReactNode } from "react";
import type { PageStrings } from "#app/shell/strings.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import artistStyles from "#app/styles/artist.css";
import styles from "#app/styles/catalogue-item.css";
import trackStyles from "#app/styles/track.css";
import { PlaybackProvider, playbackPrimitives } from "#app/track/playback.tsx";
import { PrimitivesProvider } from "#app/ui/primitives.tsx";
import { ItemAside, ItemHero, ItemTracks } from "./catalogue-item";
import type { CatalogueItemKind, PlaylistPage } from "./catalogue-items.server";

/** What the album and playlist pages both show of their item. */
type ItemPageBase = Pick<
  PlaylistPage,
  | "kindLabel"
  | "name"
  | "artwork"
  | "background"
  | "facts"
  | "tracks"
  | "playlist"
  | "notes"
  | "listenHref"
  | "share"
>;

/** The stylesheets of an album or playlist page. */
export function catalogueItemLinks() {
  return [
    { rel: "stylesheet", href: trackStyles },
    { rel: "stylesheet", href: artistStyles },
    { rel: "stylesheet", href: styles },
  ];
}

/**
 * An album or playlist page: heading, songs, and beside them notes, where to listen and sharing;
 * `side` is what the kind adds beside them, `children` what it adds below.
 */
export function CatalogueItemLayout({
  kind,
  page,
  canonical,
  byline,
  side,
  children,
}: {
  kind: CatalogueItemKind;
  page: ItemPageBase;
  canonical: string;
  byline: ReactNode;
  side?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <article className="item-page">
      <ItemHero
        eyebrow={page.kindLabel}
        name={page.name}
        byline={byline}
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
            kind={kind}
            notes={page.notes}
            listenHref={page.listenHref}
            canonical={canonical}
            share={page.share}
          />
          {side}
        </aside>
      </div>
      {children}
    </article>
  );
}

/** The React form of an album or playlist page: its strings, and its songs in the track player. */
export function CatalogueItemPlayback({
  data,
  children,
}: {
  data: {
    page: { id: string; playlist: ItemPageBase["playlist"] };
    strings: PageStrings;
    trackStrings: PageStrings;
  };
  children: ReactNode;
}) {
  usePageStrings("catalogue", data.strings);
  usePageStrings("track", data.trackStrings);
  return (
    <PlaybackProvider key={data.page.id} entries={data.page.playlist}>
      <PrimitivesProvider primitives={playbackPrimitives}>{children}</PrimitivesProvider>
    </PlaybackProvider>
  );
}
