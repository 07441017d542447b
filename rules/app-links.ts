/**
 * The Tunewave apps that pages link to (app banners, `al:*` app links, deep links). Product
 * constants, not data: they change only with a new app listing.
 */
export const appLinks = {
  appName: "Tunewave",
  iosAppStoreId: "1499028412",
  androidPackage: "com.tunewave.android",
  /** Deep links into the app: tunewave://{path} opens the same page in the app. */
  scheme: "tunewave",
} as const;

/** The app deep link for a site path ("/track/123/alias" → "tunewave://track/123/alias"). */
export function appDeepLink(path: string): string {
  return `${appLinks.scheme}:/${path.startsWith("/") ? path : `/${path}`}`;
}

/** The apps' store pages: where the apps page's badges and download prompts lead. */
export const storeLinks = {
  ios: `https://apps.apple.com/app/id${appLinks.iosAppStoreId}`,
  android: `https://play.google.com/store/apps/details?id=${appLinks.androidPackage}`,
} as const;
