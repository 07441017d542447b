// Where the embedded video site lives (spec 002 §2, §4 "Video"): its routes serve these paths and
// a track's payload links to them.

export const videoBase = "/video";

export function watchPath(key: number): string {
  return `/services${videoBase}/watch/${key}`;
}

export function embedPath(key: number): string {
  return `/services${videoBase}/embed/${key}`;
}
