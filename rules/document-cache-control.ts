/**
 * A page whose document varies by what no `Vary` can name (the country of the visitor's IP
 * address) tells browsers and other caches `private` in Cache-Control and the edge's document
 * cache (edge/document-cache.ts, decision 055), whose key holds that, how long to keep it there
 * (RFC 9213's targeted cache control, for that cache alone). It never leaves the edge: it is taken
 * off the answer before the answer is stored or sent. Here, not in edge/, as pages and their AMP
 * form (amp/, which runs no edge code) say it too.
 */
export const documentCacheControlHeader = "Document-Cache-Control";
