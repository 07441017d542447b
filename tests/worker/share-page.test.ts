import { SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import deApp from "#locales/de/app.json";
import enApp from "#locales/en/app.json";

const site = "https://tunewave.test";

async function page(path: string) {
  const response = await SELF.fetch(`${site}${path}`);
  return { status: response.status, html: await response.text() };
}

describe("/share[/{screenname}]: the share pop-up's page", () => {
  test.each([
    ["/share", enApp, "/", "https://tunewave.test/share"],
    ["/share/track", enApp, "/", "https://tunewave.test/share/track"],
    ["/de/share", deApp, "/de", "https://tunewave.test/de/share"],
    ["/de/share/artist.top-songs", deApp, "/de", "https://tunewave.test/de/share/artist.top-songs"],
  ])(
    "%s without share data: an explanation and a link home, never blank",
    async (path, strings, home, url) => {
      const { status, html } = await page(path);
      expect(status).toBe(200);
      expect(html).toContain(`<h1 id="share-title">${strings.share.emptyTitle}</h1>`);
      expect(html).toContain(strings.share.emptyText);
      expect(html).toMatch(
        new RegExp(`<a class="button"[^>]* href="${home}"[^>]*>${strings.share.home}</a>`),
      );
      expect(html).not.toContain('role="dialog"');
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      expect(html).toContain(`<meta property="og:url" content="${url}"/>`);
      expect(html).toContain(`<meta name="description" content="${strings.share.description}"/>`);
    },
  );

  test("its title is the share page's", async () => {
    expect((await page("/share")).html).toContain("<title>Share | Tunewave</title>");
    expect((await page("/de/share")).html).toContain("<title>Teilen | Tunewave</title>");
  });

  test.each([
    ["a screen name with characters the app never sends", "/share/no%20such%3Cname%3E"],
    ["a screen name longer than 64 characters", `/share/${"a".repeat(65)}`],
    ["a first segment that is not a language", "/xx/share"],
    ["a segment too many", "/share/track/more"],
  ])("%s is not found", async (_name, path) => {
    const { status, html } = await page(path);
    expect(status).toBe(404);
    expect(html).not.toContain('id="share-title"');
  });
});
