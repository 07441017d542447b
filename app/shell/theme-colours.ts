/**
 * The colours a browser or a phone paints around the site, in the light and the dark scheme of
 * app/styles/site.css: the browser bar takes the header's colour (`--color-surface`), a home-screen
 * app's splash screen the page's background (`--color-bg`). tests/unit/home-screen.test.ts holds
 * them to the stylesheet.
 */
export const themeColours = {
  light: { bar: "#ffffff", background: "#f7f8fc" },
  dark: { bar: "#161a24", background: "#0c0e14" },
} as const;

/** `<meta name="theme-color">` of each scheme: the React root and the AMP document write these. */
export const themeColourMetas: readonly { media: string; content: string }[] = (
  ["light", "dark"] as const
).map((scheme) => ({ media: `(prefers-color-scheme: ${scheme})`, content: themeColours[scheme].bar }));
