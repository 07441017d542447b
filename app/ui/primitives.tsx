import { Link as RemixLink } from "@remix-run/react";
import {
  type ComponentType,
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import { useTranslation } from "#app/shell/strings.ts";
import type { Image as ImageData, PlaylistEntry } from "#app/shell/view.ts";
import { PlayIcon } from "#app/track/play-icon.tsx";
import { ShowMore, type ShowMoreProps } from "./show-more";
// One chunk with the rest of every page's shell (app/shell/every-page.ts, decision 027).
import "#app/shell/every-page.ts";

/**
 * The elements whose markup differs between the two renderers of a page: a link and an image. A
 * page's view is written against these; the React page uses the ones below (Remix links, lazy
 * `<img>`), the AMP page supplies its own (amp/primitives.tsx: checked addresses, `amp-img`).
 * Everything else in a view is the same markup for both.
 */
export type LinkProps = {
  href: string | undefined;
  className?: string;
  children: ReactNode;
  /** Leaves the site (stores, streaming services). */
  external?: boolean;
  /** The page itself, as a `NavLink` marks it. */
  current?: boolean;
  /** Opens in a new window (share and video links). */
  newWindow?: boolean;
  /** An accessible name other than the text. */
  label?: string;
  /** A file to save (a chart's CSV), not a page to open. */
  download?: boolean;
  /** `data-*` attributes the page's script reads (`{ store: "apple" }` is `data-store="apple"`). */
  data?: Readonly<Record<string, string>>;
};

export type ImageProps = {
  image: ImageData | undefined;
  width: number;
  height: number;
  /** `fixed`: shown at width × height; `responsive`: fills its box at the image's ratio. */
  layout: "fixed" | "responsive";
  sizes?: string;
  alt: string;
  className?: string;
  /** Without a picture, an empty box of the same class keeps the layout (list rows). */
  placeholder?: boolean;
  /** Above the fold (a heading's picture): loaded at once, not when scrolled to. */
  eager?: boolean;
  /**
   * The `<img>` states the picture's own size instead of its box's (the same ratio). AMP's
   * `amp-img` always takes the box: its layout is computed from it.
   */
  ownSize?: boolean;
};

export type PlayControlProps = {
  /** The entry of the page's playlist this control plays. */
  index: number;
  entry: PlaylistEntry;
  /** The song's page: where a control without a player leads. */
  href: string;
  /** Shows "Play preview" beside the icon; without it the name is read out only. */
  withLabel?: boolean;
  className?: string;
};

export type Primitives = {
  Link: ComponentType<LinkProps>;
  Image: ComponentType<ImageProps>;
  /** Plays a preview where the page has a player (the track page's); elsewhere the song's page. */
  PlayControl: ComponentType<PlayControlProps>;
  /** Folds long content behind a show more / less button where the page has a script. */
  ShowMore: ComponentType<ShowMoreProps>;
};

/** `data` as attributes. */
function dataAttributes(data: LinkProps["data"]): Record<string, string> | undefined {
  return data && Object.fromEntries(Object.entries(data).map(([key, value]) => [`data-${key}`, value]));
}

/**
 * A plain `<a>` with what the link is (leaves the site, opens a window, is the page itself, is a
 * file), or the bare text when there is no address. Both renderers draw links with it; the React
 * one uses Remix's `Link` for the site's own pages.
 */
export function PlainLink({
  href,
  className,
  children,
  external,
  current,
  newWindow,
  label,
  download,
  data,
}: LinkProps) {
  if (!href) return className ? <span className={className}>{children}</span> : children;
  return (
    <a
      className={className}
      href={href}
      rel={external || newWindow ? "noopener noreferrer" : undefined}
      target={newWindow ? "_blank" : undefined}
      aria-current={current ? "page" : undefined}
      aria-label={label}
      download={download}
      {...dataAttributes(data)}
    >
      {children}
    </a>
  );
}

function ReactLink(props: LinkProps) {
  const { href, className, children, external, current, newWindow, label, download, data } = props;
  const ownPage = href?.startsWith("/") && !href.startsWith("//");
  if (!href || !ownPage || external || newWindow || download) return <PlainLink {...props} />;
  return (
    <RemixLink
      className={className}
      to={href}
      aria-current={current ? "page" : undefined}
      aria-label={label}
      {...dataAttributes(data)}
    >
      {children}
    </RemixLink>
  );
}

/** Spec 002 §4 "Images: loading, then loaded, or error (error message shown)". */
type ImageState = "loading" | "loaded" | "error";

function ReactImage(props: ImageProps) {
  const { image, className, placeholder = false } = props;
  if (!image) return placeholder ? <span className={className} aria-hidden="true" /> : null;
  // A new picture (another page of the same route) starts loading again.
  return <LoadingImage key={image.src} {...props} image={image} />;
}

/** A srcset whose candidates give their widths ("… 400w"). */
const widthDescriptors = /\s\d+w\s*(,|$)/;

function LoadingImage({
  image,
  width,
  height,
  sizes,
  alt,
  className,
  eager = false,
  ownSize = false,
}: ImageProps & { image: ImageData }) {
  const { t } = useTranslation("common");
  const [state, setState] = useState<ImageState>("loading");
  const element = useRef<HTMLImageElement>(null);
  // A picture that finished before the page's script ran fired its event at no listener.
  useEffect(() => {
    const img = element.current;
    if (img?.complete) setState(img.naturalWidth > 0 ? "loaded" : "error");
  }, []);
  if (state === "error") {
    // The same box (class and ratio) with the spec's message (002 §8 website_imgsrcset_error).
    return (
      <span
        className={`${className ?? ""} image-error`}
        style={{ aspectRatio: `${width} / ${height}` }}
        data-state="error"
      >
        <span>{t("error.imgsrcset")}</span>
        {alt ? <span className="visually-hidden">{alt}</span> : null}
      </span>
    );
  }
  // `sizes` picks among width descriptors; beside a density descriptor ("1x") it is invalid HTML.
  const sizesOrWidth = widthDescriptors.test(image.srcSet) ? (sizes ?? `${width}px`) : undefined;
  const img = (
    <img
      ref={element}
      className={className}
      src={image.src}
      srcSet={image.srcSet}
      sizes={sizesOrWidth}
      width={ownSize ? image.width : width}
      height={ownSize ? image.height : height}
      alt={alt}
      loading={eager ? undefined : "lazy"}
      decoding="async"
      data-state={state}
      onLoad={() => setState("loaded")}
      onError={() => setState("error")}
    />
  );
  if (!image.webpSrcSet) return img;
  // WebP where the browser takes it (its own `type` check), the JPEG everywhere else.
  return (
    <picture className="image-picture">
      <source type="image/webp" srcSet={image.webpSrcSet} sizes={sizesOrWidth} />
      {img}
    </picture>
  );
}

/**
 * A play control without a player: the link to the song's page, where its preview plays. What AMP
 * pages draw, and the React pages' default (the track page provides its player's button).
 */
export function PlayLink({ entry, href, withLabel = false, className = "play-button" }: PlayControlProps) {
  const { t } = useTranslation("track");
  const { Link } = usePrimitives();
  return (
    <Link className={className} href={href}>
      <PlayIcon />
      {withLabel ? (
        <span>{t("playPreview")}</span>
      ) : (
        <span className="visually-hidden">{t("play", { title: entry.title })}</span>
      )}
    </Link>
  );
}

/** Everything, unfolded: a page without a script to unfold it (AMP). */
export function ShowAll({ children }: ShowMoreProps) {
  return children;
}

export const reactPrimitives: Primitives = {
  Link: ReactLink,
  Image: ReactImage,
  PlayControl: PlayLink,
  ShowMore,
};

const PrimitivesContext = createContext<Primitives>(reactPrimitives);

export function PrimitivesProvider({
  primitives,
  children,
}: {
  primitives: Primitives;
  children: ReactNode;
}) {
  return <PrimitivesContext.Provider value={primitives}>{children}</PrimitivesContext.Provider>;
}

export function usePrimitives(): Primitives {
  return useContext(PrimitivesContext);
}
