// The URL of a file of the browser build, and back. The assets server answers a path only in its
// encoded form (each segment as encodeURIComponent writes it) and redirects any other spelling of
// it there with a 307: a route module named after its route's parameters (`($lang).track.$key`) is
// asked for as `(%24lang).track.%24key`, or every load of it costs a redirect first.

/** `/build/routes/($lang).track-X.js` → `/build/routes/(%24lang).track-X.js` (an encoded URL stays as it is). */
export function assetUrlOf(urlPath) {
  return urlPath
    .split("/")
    .map((segment) => encodeURIComponent(decodeSegment(segment)))
    .join("/");
}

/** An asset's URL path → its file's path under public/ (`/build/routes/($lang).track-X.js`). */
export function assetFileOf(urlPath) {
  return urlPath.split(/[?#]/)[0].split("/").map(decodeSegment).join("/");
}

function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Every quoted `/build/…` path in a build's source, written as the assets server answers it. */
export function withEncodedAssetUrls(source) {
  return source.replace(/"(\/build\/[^"\s]+)"/g, (_quoted, urlPath) => JSON.stringify(assetUrlOf(urlPath)));
}
