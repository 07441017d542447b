import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { themeColours } from "#app/shell/theme-colours.ts";
import { launchWithProfile, viewports } from "./browser";

// Putting the site on a home screen, as Chromium judges it: the DevTools protocol's installability
// check, the manifest it found, and the manifest's icons loaded as images.

const baseURL = inject("baseURL");
const profile = mkdtempSync(path.join(tmpdir(), "tunewave-home-screen-"));
let context: BrowserContext;

beforeAll(async () => {
  context = await launchWithProfile(profile, { viewport: viewports.phone });
});

afterAll(async () => {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
});

type ManifestIcon = { src: string; sizes: string; type: string; purpose: string };

test.each([
  ["/", "/manifest.webmanifest"],
  ["/de", "/de/manifest.webmanifest"],
  ["/ja/charts", "/ja/manifest.webmanifest"],
])(
  "%s can be installed: no installability errors, its language's manifest, icons that load",
  async (page, manifest) => {
    const tab = await context.newPage();
    try {
      await tab.goto(`${baseURL}${page}`, { waitUntil: "networkidle" });
      const cdp = await tab.context().newCDPSession(tab);
      const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
      expect(installabilityErrors).toEqual([]);
      const found = await cdp.send("Page.getAppManifest");
      expect(found.url).toBe(`${baseURL}${manifest}`);
      expect(found.errors).toEqual([]);
      const icons = (JSON.parse(found.data ?? "{}") as { icons: ManifestIcon[] }).icons;
      expect(icons.map((icon) => icon.purpose).sort()).toEqual(["any", "any", "maskable", "maskable"]);
      for (const icon of icons) {
        const url = new URL(icon.src, found.url).href;
        const response = await tab.request.get(url);
        expect(response.status(), url).toBe(200);
        expect(response.headers()["content-type"], url).toBe("image/png");
        // Decoded by the browser, at the size the manifest says.
        const size = await tab.evaluate(async (src) => {
          const image = new Image();
          image.src = src;
          await image.decode();
          return `${image.naturalWidth}x${image.naturalHeight}`;
        }, url);
        expect(size, url).toBe(icon.sizes);
      }
      await cdp.detach();
    } finally {
      await tab.close();
    }
  },
);

test("the browser bar takes the header's colour in the light and the dark scheme", async () => {
  const tab = await context.newPage();
  try {
    for (const scheme of ["light", "dark"] as const) {
      await tab.emulateMedia({ colorScheme: scheme });
      await tab.goto(`${baseURL}/`, { waitUntil: "domcontentloaded" });
      const colours = await tab.evaluate(() => ({
        bar: [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].find(
          (meta) => window.matchMedia(meta.media).matches,
        )?.content,
        header: getComputedStyle(document.querySelector(".site-header") as Element).backgroundColor,
      }));
      expect(colours.bar, scheme).toBe(themeColours[scheme].bar);
      const [r, g, b] = [1, 3, 5].map((at) =>
        Number.parseInt(themeColours[scheme].bar.slice(at, at + 2), 16),
      );
      expect(colours.header, scheme).toBe(`rgb(${r}, ${g}, ${b})`);
    }
  } finally {
    await tab.close();
  }
});

test("the apple-touch-icon and favicon.ico that browsers ask for by name are there", async () => {
  const tab = await context.newPage();
  try {
    await tab.goto(`${baseURL}/`, { waitUntil: "domcontentloaded" });
    const sizes = await tab.evaluate(async () => {
      const load = async (src: string) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return `${image.naturalWidth}x${image.naturalHeight}`;
      };
      return { touch: await load("/apple-touch-icon.png"), ico: await load("/favicon.ico") };
    });
    expect(sizes.touch).toBe("180x180");
    // The ICO holds 16, 32 and 48 px images; the browser decodes one of them.
    expect(["16x16", "32x32", "48x48"]).toContain(sizes.ico);
  } finally {
    await tab.close();
  }
});
