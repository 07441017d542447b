import "#tests/all-languages.ts";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { themeColourMetas, themeColours } from "#app/shell/theme-colours.ts";
import { manifestIcons, manifestPath, webAppManifest } from "#app/site-files/home-screen.server.ts";
import { languageKeys, languages } from "#rules/languages.ts";
import { pngIcons } from "#scripts/icons.mjs";

const root = path.join(import.meta.dirname, "../..");
const stylesheet = readFileSync(path.join(root, "app/styles/site.css"), "utf8");

/** A custom property's value in the light `:root` block, or in the dark scheme's. */
function cssColour(name: string, scheme: "light" | "dark"): string | undefined {
  const darkStart = stylesheet.indexOf("@media (prefers-color-scheme: dark)");
  const block = scheme === "light" ? stylesheet.slice(0, darkStart) : stylesheet.slice(darkStart);
  return new RegExp(`${name}:\\s*(#[0-9a-f]{6})`, "i").exec(block)?.[1];
}

test("the theme colours are the stylesheet's header and page colours, in both schemes", () => {
  for (const scheme of ["light", "dark"] as const) {
    expect(themeColours[scheme].bar, scheme).toBe(cssColour("--color-surface", scheme));
    expect(themeColours[scheme].background, scheme).toBe(cssColour("--color-bg", scheme));
  }
  expect(themeColourMetas).toEqual([
    { media: "(prefers-color-scheme: light)", content: themeColours.light.bar },
    { media: "(prefers-color-scheme: dark)", content: themeColours.dark.bar },
  ]);
});

test.each(languageKeys.map((key) => [key]))("the %s manifest is in its language and starts there", (lang) => {
  const manifest = webAppManifest(lang);
  const { t } = serverStrings(lang);
  const language = languages.find((entry) => entry.key === lang);
  expect(manifest.name).toBe(t("manifest:name"));
  expect(manifest.short_name).toBe(t("common:siteName"));
  expect(manifest.description).toBe(t("manifest:description"));
  expect(manifest.lang).toBe(language?.locale);
  expect(manifest.start_url).toBe(lang === "en" ? "/" : `/${lang}`);
  expect(manifestPath(lang)).toBe(lang === "en" ? "/manifest.webmanifest" : `/${lang}/manifest.webmanifest`);
  expect(manifest).toMatchObject({ id: "/", scope: "/", display: "standalone" });
  expect(manifest.theme_color).toBe(themeColours.light.bar);
  expect(manifest.background_color).toBe(themeColours.light.background);
  expect(manifest.short_name.length).toBeLessThanOrEqual(12);
});

test("the manifest's icons are the ones the build draws, 192 and 512 px, any and maskable", () => {
  for (const icon of manifestIcons) {
    const drawn = pngIcons.find((png) => png.file === `public${icon.src}`);
    expect(drawn, icon.src).toBeDefined();
    expect(icon.sizes).toBe(`${drawn?.size}x${drawn?.size}`);
    expect(drawn?.shape).toBe(icon.purpose === "maskable" ? "square" : "mark");
  }
  const sizes = (purpose: string) =>
    manifestIcons.filter((icon) => icon.purpose === purpose).map((icon) => icon.sizes);
  expect(sizes("any")).toEqual(["192x192", "512x512"]);
  expect(sizes("maskable")).toContain("512x512");
  expect(pngIcons.find((png) => png.file === "public/apple-touch-icon.png")).toEqual({
    file: "public/apple-touch-icon.png",
    size: 180,
    shape: "square",
  });
});
