import "#tests/all-languages.ts";
import { SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { resources } from "#locales/index.ts";
import { languageKeys } from "#rules/languages.ts";

// The page behind "Identify a song", as the server renders it (the recognition itself runs in the
// browser: tests/e2e/recognition.test.ts).

const site = "https://tunewave.test";

async function page(path: string) {
  const response = await SELF.fetch(`${site}${path}`);
  return { status: response.status, html: await response.text(), headers: response.headers };
}

function strings(lang: string) {
  return (resources as Record<string, { recognition: Record<string, unknown> }>)[lang]?.recognition ?? {};
}

function escaped(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("'", "&#x27;").replaceAll('"', "&quot;");
}

describe("the identify page", () => {
  test("renders the listen button (disabled until the page runs), the intro and the privacy note", async () => {
    const { status, html } = await page("/identify");
    expect(status).toBe(200);
    expect(html).toContain('<h1 id="recognition-title">Identify a song</h1>');
    expect(html).toMatch(/<button type="button" class="recognition__button"[^>]*disabled=""/);
    expect(html).toContain("Tap to listen");
    expect(html).toContain("Tunewave listens for up to 12 seconds.");
    expect(html).toContain('role="status"');
    expect(html).toContain(escaped(String(strings("en").privacy)));
  });

  test("says why nothing happens without JavaScript", async () => {
    const { html } = await page("/identify");
    expect(html).toMatch(
      /<noscript>.*Turn on JavaScript to identify songs with your microphone\..*<\/noscript>/s,
    );
  });

  test("has its title, description and social tags", async () => {
    const { html } = await page("/identify");
    expect(html).toContain("<title>Identify a song | Tunewave</title>");
    expect(html).toMatch(
      /<meta name="description" content="Let Tunewave listen to the music playing around you/,
    );
    expect(html).toContain('<meta property="og:url" content="https://tunewave.test/identify"/>');
    expect(html).toContain('<meta property="og:type" content="website"/>');
    expect(html).toContain('<link rel="canonical" href="https://tunewave.test/identify"/>');
  });

  test.each(languageKeys.filter((lang) => lang !== "en"))("in %s, with its own strings", async (lang) => {
    const { status, html } = await page(`/${lang}/identify`);
    expect(status).toBe(200);
    expect(html).toContain(`<h1 id="recognition-title">${escaped(String(strings(lang).title))}</h1>`);
    expect(html).toContain(escaped(String(strings(lang).listen)));
  });

  test("an unknown first segment is not a language: 404", async () => {
    expect((await page("/xx/identify")).status).toBe(404);
  });
});
