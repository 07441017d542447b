import {
  type ImageProps,
  type LinkProps,
  PlainLink,
  PlayLink,
  type Primitives,
  ShowAll,
} from "../app/components/primitives";
import { safeHref, safeImageSrc, safeSrcSet } from "./safe";

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

/**
 * An image as AMP wants it: `amp-img` with its width and height (no layout shift), `fixed` at a
 * size or `responsive` to its box. An image whose address is not safe is left out.
 */
function AmpImage({ image, width, height, layout, sizes, alt, className, placeholder = false }: ImageProps) {
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
function AmpLink(props: LinkProps) {
  return <PlainLink {...props} href={safeHref(props.href)} />;
}

/**
 * The AMP renderer's primitives: no script, no unsafe address reaches the markup, and playing
 * needs the interactive page, so a play control is the link to the song's page and long content
 * is shown whole.
 */
export const ampPrimitives: Primitives = {
  Link: AmpLink,
  Image: AmpImage,
  PlayControl: PlayLink,
  ShowMore: ShowAll,
};
