import "#tests/all-languages.ts";
import { SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { resources } from "#locales/index.ts";
import { languageKeys } from "#rules/languages.ts";

// The offline page (docs/decisions/057-heard-offline.md) as the server renders it: what the
// service worker keeps and answers a navigation with when the network is down (that part:
// tests/e2e/heard-offline.test.ts).

const site = "https://tunewave.test";

type RecognitionStrings = { offline: Record<string, string>; listen: string };

async function page(path: string, init?: RequestInit) {
  const response = await SELF.fetch(`${site}${path}`, init);
  return { status: response.status, html: await response.text(), headers: response.headers };
}

function strings(lang: string) {
  const found = (resources as unknown as Record<string, { recognition: RecognitionStrings } | undefined>)[
    lang
  ];
  return found?.recognition ?? { offline: {}, listen: "" };
}

function escaped(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("'", "&#x27;").replaceAll('"', "&quot;");
}

describe("the offline page", () => {
  test("says the visitor is offline and can still identify a song, with the listen button; never indexed", async () => {
    const { status, html } = await page("/offline");
    expect(status).toBe(200);
    expect(html).toContain(
      `<h1 id="recognition-title">${escaped("You're offline: you can still identify a song")}</h1>`,
    );
    expect(html).toMatch(/<button type="button" class="recognition__button"[^>]*disabled=""/);
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain(`<title>${escaped("You're offline | Tunewave")}</title>`);
  });

  test("its page data marks it the offline shell, whose start-up leaves sign-in alone", async () => {
    // The root's data as Remix streams it into the document (turbo-stream: a key, then its value
    // or, for one already written, its index).
    const shell = 'offlineShell\\",true';
    expect((await page("/offline")).html).toContain(shell);
    expect((await page("/identify")).html).not.toContain(shell);
  });

  test.each(languageKeys.filter((lang) => lang !== "en"))("in %s, with its own strings", async (lang) => {
    const { status, html } = await page(`/${lang}/offline`);
    expect(status).toBe(200);
    expect(html).toContain(`<h1 id="recognition-title">${escaped(strings(lang).offline.title ?? "")}</h1>`);
    expect(html).toContain(escaped(strings(lang).listen));
  });
});
