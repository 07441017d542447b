import type { ReactNode } from "react";
import { LanguagePicker } from "../app/components/language-picker";
import type { Image, TrackSummary } from "../app/data/view";
import type { rootData } from "../app/root-data.server";
import { safeHref, safeImageSrc, safeSrcSet } from "./safe";
import type { Translate } from "./strings";

// AMP's own elements, as JSX knows them. Custom elements take `class`, not `className`.
declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "amp-img": {
        class?: string;
        src: string;
        srcset?: string;
        sizes?: string;
        width: number;
        height: number;
        layout: "fixed" | "responsive" | "intrinsic";
        alt: string;
      };
    }
  }
}

export type RootData = ReturnType<typeof rootData>;

/**
 * An image as AMP wants it: `amp-img` with its width and height (no layout shift), `fixed` at a
 * size or `responsive` to its box. An image whose address is not safe is left out.
 */
export function AmpImg({
  image,
  width,
  height,
  layout,
  sizes,
  alt,
  className,
  placeholder = false,
}: {
  image: Image | undefined;
  width: number;
  height: number;
  layout: "fixed" | "responsive";
  sizes?: string;
  alt: string;
  className?: string;
  /** Without a picture, an empty box of the same class keeps the layout (list rows). */
  placeholder?: boolean;
}) {
  const src = safeImageSrc(image?.src);
  if (!image || !src) return placeholder ? <span className={className} aria-hidden="true" /> : null;
  return (
    <amp-img
      class={className}
      src={src}
      srcset={safeSrcSet(image.srcSet)}
      sizes={sizes}
      width={width}
      height={height}
      layout={layout}
      alt={alt}
    />
  );
}

/** A link when the address is safe, the bare text otherwise. */
export function AmpLink({
  href,
  className,
  children,
  external = false,
  current = false,
  newWindow = false,
  label,
}: {
  href: string | undefined;
  className?: string;
  children: ReactNode;
  /** Leaves the site (stores, streaming services). */
  external?: boolean;
  /** The page itself, as a `NavLink` marks it. */
  current?: boolean;
  /** Opens in a new window (share and video links, as on the React page). */
  newWindow?: boolean;
  /** An accessible name other than the text. */
  label?: string;
}) {
  const safe = safeHref(href);
  if (!safe) return className ? <span className={className}>{children}</span> : children;
  return (
    <a
      className={className}
      href={safe}
      rel={external || newWindow ? "noopener noreferrer" : undefined}
      target={newWindow ? "_blank" : undefined}
      aria-current={current ? "page" : undefined}
      aria-label={label}
    >
      {children}
    </a>
  );
}

/** The size covers are shown at in lists (the React `TrackList` shows them at 56px too). */
export const listCoverSize = 56;

/** A list of songs, as the React `TrackList`; playing degrades to the song's page. */
export function AmpTrackList({
  tracks,
  ranked = true,
  label,
  t,
  rankLabels,
}: {
  tracks: readonly TrackSummary[];
  ranked?: boolean;
  label: string;
  t: Translate;
  /** Ranks as the page writes them (charts: in the locale's digits); default 1, 2, 3… */
  rankLabels?: readonly string[];
}) {
  return (
    <ol className="track-list" aria-label={label}>
      {tracks.map((track, index) => (
        <li className={ranked ? "track-row" : "track-row track-row--unranked"} key={track.key}>
          {ranked ? <span className="track-row__rank">{rankLabels?.[index] ?? index + 1}</span> : null}
          <AmpImg
            image={track.cover}
            width={listCoverSize}
            height={listCoverSize}
            layout="fixed"
            alt=""
            className="track-row__cover"
            placeholder
          />
          <span>
            <AmpLink className="track-row__title" href={track.href}>
              {track.title}
            </AmpLink>
            <span className="track-row__artist">
              {track.artist}
              {track.isNewRelease ? <span className="badge">{t("common:newRelease")}</span> : null}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}

export type AmpTile = {
  key: string;
  title: string;
  subtitle?: string | undefined;
  href: string;
  image: Image | undefined;
  external?: boolean;
};

/** Square tiles, as the React `TileGrid`. */
export function AmpTileGrid({ items, label }: { items: readonly AmpTile[]; label: string }) {
  return (
    <ul className="tile-grid" aria-label={label}>
      {items.map((item) => (
        <li className="tile" key={item.key}>
          <AmpLink href={item.href} external={item.external}>
            <AmpImg
              image={item.image}
              width={item.image?.width ?? 1}
              height={item.image?.height ?? 1}
              layout="responsive"
              sizes="(max-width: 650px) 50vw, 200px"
              alt=""
            />
            <span className="tile__title">{item.title}</span>
            {item.subtitle ? <span className="tile__subtitle">{item.subtitle}</span> : null}
          </AmpLink>
        </li>
      ))}
    </ul>
  );
}

/**
 * The site's header and footer, as the root renders them, from the root's own data. The search
 * box is a link to the search page, where it works; every link leads to the interactive page.
 */
export function AmpChrome({ root, t, children }: { root: RootData; t: Translate; children: ReactNode }) {
  const href = (path: string) => `${root.pathPrefix}${path}`;
  return (
    <>
      <a className="skip-link" href="#main">
        {t("common:skipToContent")}
      </a>
      {root.hideHeaderFooter ? null : (
        <header className="site-header">
          <div className="container site-header__bar">
            <a href={href("/") || "/"} className="brand">
              <span className="brand__mark" aria-hidden="true" />
              <span className="brand__name">{t("common:siteName")}</span>
            </a>
            <a className="amp-search-link" href={href("/search")}>
              {t("common:search.placeholder")}
            </a>
            <nav className="site-nav" aria-label={t("common:nav.label")}>
              <a href={href("/charts")}>{t("common:nav.charts")}</a>
              <a href={href("/search")} className="site-nav__search">
                {t("common:nav.search")}
              </a>
              <a href={href("/identify")}>{t("common:nav.identify")}</a>
            </nav>
          </div>
        </header>
      )}
      <main id="main" className="site-main">
        <div className="container">{children}</div>
      </main>
      {root.hideHeaderFooter ? null : (
        <footer className="site-footer">
          <div className="container">
            <LanguagePicker links={root.languageLinks} current={root.lang} t={t} />
          </div>
        </footer>
      )}
    </>
  );
}
