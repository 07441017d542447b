/**
 * What data may become in AMP markup. React escapes text and attribute values; these decide which
 * addresses may become links and images at all, so a hostile `javascript:` or `data:` address from
 * the data never reaches the page (React 18 only warns about them).
 */

/** A root-relative path of the site ("/track/1/a", not "//host"), or an http(s) or mailto address. */
export function safeHref(href: string | undefined): string | undefined {
  if (href === undefined) return undefined;
  if (/^\/(?![/\\])/.test(href) && !/[\s<>"]/.test(href)) return href;
  try {
    const url = new URL(href);
    return url.protocol === "https:" || url.protocol === "http:" || url.protocol === "mailto:"
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
}

/** Image sources AMP loads: root-relative paths and http(s) addresses. */
export function safeImageSrc(src: string | undefined): string | undefined {
  const href = safeHref(src);
  return href?.startsWith("mailto:") ? undefined : href;
}

/** A `srcset` whose every candidate is a safe image source; anything else drops the whole set. */
export function safeSrcSet(srcSet: string | undefined): string | undefined {
  if (!srcSet) return undefined;
  const candidates = srcSet.split(",").map((candidate) => candidate.trim().split(/\s+/));
  const safe = candidates.every(
    ([src, descriptor, ...rest]) =>
      rest.length === 0 &&
      safeImageSrc(src) !== undefined &&
      (descriptor === undefined || /^\d+(\.\d+)?[wx]$/.test(descriptor)),
  );
  return safe ? srcSet : undefined;
}
