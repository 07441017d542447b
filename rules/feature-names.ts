// The flag names alone, without the config's schemas: the site's chrome and the browser code read
// them on every page, and a module-level valibot schema beside them put valibot (3.8 KB gzip) in
// every first visit (decision 027, "what esbuild keeps").

/** The flags the site reads, by the names the served config gives them (origin/catalog/features.ts). */
export const featureNames = {
  search: "search",
  syncedLyrics: "syncedlyrics",
  adamIdRoute: "artistadamidroute",
  webrec: "webrec",
  myLibrarySunset: "mylibrarysunset",
  chartsGenreTabs: "chartsgenretabs",
  netlog: "netlog",
} as const;
export type FeatureName = (typeof featureNames)[keyof typeof featureNames];
