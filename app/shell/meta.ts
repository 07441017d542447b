import type { MetaDescriptor } from "@remix-run/cloudflare";
import { appDeepLink, appLinks } from "#rules/app-links.ts";
// One chunk with the rest of every page's shell (app/shell/every-page.ts, decision 027).
import "#app/shell/every-page.ts";

/** What a page says about itself; its loader builds it, `pageMeta` turns it into head tags. */
export type PageMeta = {
  title: string;
  description: string;
  /** Absolute URL of the page's canonical form (the root's `canonical`). */
  canonical: string;
  /** Path without language prefix, for app deep links ("/track/123/alias"). */
  appPath: string;
  /** The AMP form's absolute URL, for pages that have one. */
  amphtml?: string;
  image?: { url: string; width: number; height: number; alt: string };
  /** Open Graph type. */
  type: "website" | "music.song" | "music.musician" | "music.album" | "music.playlist";
  /** schema.org data (MusicRecording, MusicGroup, MusicAlbum, MusicPlaylist). */
  jsonLd?: Record<string, unknown>;
  /** Open Graph `music.song` properties: the length in seconds and the artist page's absolute URL. */
  song?: { durationSeconds: number; musicianUrl?: string };
  locale: string;
};

/**
 * Every page's head: title, description, Open Graph (with image size), Twitter card, app links
 * and the app banner, `rel=amphtml`, JSON-LD and a song's Open Graph music properties. Canonical
 * and hreflang come from the root. Scrapers get all of it in the server-rendered HTML.
 */
export function pageMeta(meta: PageMeta): MetaDescriptor[] {
  const deepLink = appDeepLink(meta.appPath);
  const tags: MetaDescriptor[] = [
    { title: meta.title },
    { name: "description", content: meta.description },
    { property: "og:site_name", content: appLinks.appName },
    { property: "og:type", content: meta.type },
    { property: "og:title", content: meta.title },
    { property: "og:description", content: meta.description },
    { property: "og:url", content: meta.canonical },
    { property: "og:locale", content: meta.locale.replace("-", "_") },
    { name: "twitter:card", content: meta.image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: meta.title },
    { name: "twitter:description", content: meta.description },
    { property: "al:ios:url", content: deepLink },
    { property: "al:ios:app_store_id", content: appLinks.iosAppStoreId },
    { property: "al:ios:app_name", content: appLinks.appName },
    { property: "al:android:url", content: deepLink },
    { property: "al:android:package", content: appLinks.androidPackage },
    { property: "al:android:app_name", content: appLinks.appName },
    { name: "apple-itunes-app", content: `app-id=${appLinks.iosAppStoreId}, app-argument=${deepLink}` },
  ];
  if (meta.image) {
    tags.push(
      { property: "og:image", content: meta.image.url },
      { property: "og:image:width", content: String(meta.image.width) },
      { property: "og:image:height", content: String(meta.image.height) },
      { property: "og:image:alt", content: meta.image.alt },
      { name: "twitter:image", content: meta.image.url },
      { name: "twitter:image:alt", content: meta.image.alt },
    );
  }
  if (meta.amphtml) tags.push({ tagName: "link", rel: "amphtml", href: meta.amphtml });
  if (meta.jsonLd) tags.push({ "script:ld+json": meta.jsonLd });
  if (meta.song) {
    tags.push({ property: "music:duration", content: String(meta.song.durationSeconds) });
    if (meta.song.musicianUrl) tags.push({ property: "music:musician", content: meta.song.musicianUrl });
  }
  return tags;
}

/**
 * The head of a page kept out of search (sign-in screens, popup landings, notices): its title and
 * `noindex`, and the referrer policy a page whose address carries a code or token needs.
 */
export function unlistedPageMeta(title: string, referrer?: "no-referrer" | "same-origin"): MetaDescriptor[] {
  return [
    { title },
    { name: "robots", content: "noindex" },
    ...(referrer ? [{ name: "referrer", content: referrer }] : []),
  ];
}
