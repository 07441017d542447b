import { serverStrings } from "#app/shell/i18n.server.ts";
import { themeColours } from "#app/shell/theme-colours.ts";
import { type LanguageKey, languageOf } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";

/**
 * The web app manifest (https://www.w3.org/TR/appmanifest/): what a phone or a desktop browser
 * needs to put the site on a home screen. One per interface language, at that language's prefix
 * (`/manifest.webmanifest`, `/de/manifest.webmanifest`): the name and description are the
 * language's, and the app starts on that language's home page. Every language is the same app (one
 * `id`) over the whole site (`scope`), so moving between languages stays inside it.
 */

/** Where a language's manifest is; each page links its own language's. */
export function manifestPath(lang: LanguageKey): string {
  return localizedPath(lang, "/manifest.webmanifest");
}

/**
 * The icons, drawn at build time from the brand mark (public/favicon.svg) by
 * scripts/build-icons.mjs. "any": the round mark on a transparent square; "maskable": the mark's
 * background fills the square and the wave stays inside the central safe zone (80 %), so any mask
 * shape the platform cuts keeps the whole wave.
 */
export const manifestIcons = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
  { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
] as const;

export function webAppManifest(lang: LanguageKey) {
  const { t } = serverStrings(lang);
  const { locale, dir } = languageOf(lang);
  return {
    id: "/",
    name: t("manifest:name"),
    short_name: t("common:siteName"),
    description: t("manifest:description"),
    lang: locale,
    dir,
    start_url: localizedPath(lang, "/"),
    scope: "/",
    display: "standalone",
    // A manifest has one pair of colours: the light scheme's. Pages override the bar colour in
    // the dark scheme with their own theme-color (app/shell/theme-colours.ts).
    theme_color: themeColours.light.bar,
    background_color: themeColours.light.background,
    categories: ["music", "entertainment"],
    icons: manifestIcons,
  };
}
