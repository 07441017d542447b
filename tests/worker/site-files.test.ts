import { expect, test } from "vitest";
import { themeColours } from "#app/shell/theme-colours.ts";
import { manifestIcons } from "#app/site-files/home-screen.server.ts";
import { languages, localizedPath } from "#rules/languages.ts";
import { agent, site } from "./browser-jar";
import { getAs } from "./site";

// robots.txt, security.txt, the web app manifests and the icons, as the built worker answers them.

const get = getAs({ "user-agent": agent });

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(view.getUint32(0)).toBe(0x89504e47);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

test("robots.txt names the sitemap index at the site's own origin and sets no cookie", async () => {
  const response = await get("/robots.txt");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(response.headers.get("set-cookie")).toBeNull();
  const text = await response.text();
  expect(text).toContain(`\nSitemap: ${site}/sitemap.xml\n`);
  expect(text).toContain("\nDisallow: /secure/\n");
  expect(text).toContain("\nDisallow: /ja/search\n");
});

test("security.txt (RFC 9116) has a contact, a canonical URL, and an expiry ahead but under a year", async () => {
  const response = await get("/.well-known/security.txt");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  const fields = new Map(
    (await response.text())
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
  );
  expect(fields.get("Contact")).toBe("mailto:security@tunewave.test");
  expect(fields.get("Canonical")).toBe(`${site}/.well-known/security.txt`);
  expect(fields.get("Preferred-Languages")).toBe("en");
  const expires = fields.get("Expires") ?? "";
  expect(expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  const ahead = Date.parse(expires) - Date.now();
  expect(ahead).toBeGreaterThan(0);
  expect(ahead).toBeLessThan(365 * 24 * 60 * 60 * 1000);
});

test.each(languages.map((language) => [language.key, language.locale]))(
  "the %s pages link their own language's manifest, which starts the app in that language",
  async (lang, locale) => {
    const html = await (await get(localizedPath(lang, "/company"))).text();
    const href = /<link rel="manifest" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toBe(localizedPath(lang, "/manifest.webmanifest"));
    const response = await get(href ?? "");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/manifest+json; charset=utf-8");
    const manifest = (await response.json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      id: "/",
      lang: locale,
      start_url: localizedPath(lang, "/"),
      scope: "/",
      display: "standalone",
      theme_color: themeColours.light.bar,
      background_color: themeColours.light.background,
    });
    expect(typeof manifest.name).toBe("string");
    expect(manifest.short_name).toBe("Tunewave");
  },
);

test("pages give the browser bar the header's colour in each scheme, and the home-screen icon", async () => {
  for (const path of ["/", "/amp/de"]) {
    const html = await (await get(path)).text();
    expect(html, path).toMatch(
      new RegExp(
        `<meta name="theme-color" media="\\(prefers-color-scheme: light\\)" content="${themeColours.light.bar}"/?>`,
      ),
    );
    expect(html, path).toMatch(
      new RegExp(
        `<meta name="theme-color" media="\\(prefers-color-scheme: dark\\)" content="${themeColours.dark.bar}"/?>`,
      ),
    );
  }
  expect(await (await get("/")).text()).toContain(
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png"/>',
  );
  expect(await (await get("/amp/de")).text()).toContain(
    '<link rel="manifest" href="/de/manifest.webmanifest">',
  );
});

test("a manifest at a path that is not a language is the site's not-found page", async () => {
  expect((await get("/xx/manifest.webmanifest")).status).toBe(404);
  const english = await get("/en/manifest.webmanifest");
  expect(english.status).toBe(301);
  expect(english.headers.get("location")).toBe("/manifest.webmanifest");
});

test("the icons, the apple-touch-icon and favicon.ico are served at their sizes", async () => {
  for (const icon of manifestIcons) {
    const response = await get(icon.src);
    expect(response.status, icon.src).toBe(200);
    expect(response.headers.get("content-type"), icon.src).toBe("image/png");
    const size = Number(icon.sizes.split("x")[0]);
    expect(pngSize(new Uint8Array(await response.arrayBuffer())), icon.src).toEqual({
      width: size,
      height: size,
    });
  }
  const touch = await get("/apple-touch-icon.png");
  expect(touch.status).toBe(200);
  expect(pngSize(new Uint8Array(await touch.arrayBuffer()))).toEqual({ width: 180, height: 180 });
  const ico = await get("/favicon.ico");
  expect(ico.status).toBe(200);
  const bytes = new DataView(await ico.arrayBuffer());
  expect([bytes.getUint16(0, true), bytes.getUint16(2, true), bytes.getUint16(4, true)]).toEqual([0, 1, 3]);
  expect([16, 32, 48].map((_, index) => bytes.getUint8(6 + 16 * index))).toEqual([16, 32, 48]);
});
