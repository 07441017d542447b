/**
 * Caching for AMP caches and social-card scrapers: a page is the same for every visitor of its URL
 * (AMP answers carry no cookies), fresh for 5 minutes in browsers and an hour in shared caches,
 * and served stale for a day while it is refreshed.
 */
export const ampCacheControl = {
  page: "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400",
  /** A missing page may appear (a new track): kept briefly. */
  notFound: "public, max-age=60, s-maxage=300",
  /** A failure, or a move that depends on the visitor or a form's choice: never pinned in a cache. */
  failure: "no-store",
} as const;

export function ampHtmlHeaders(cacheControl: string): HeadersInit {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": cacheControl,
    "X-Content-Type-Options": "nosniff",
  };
}
