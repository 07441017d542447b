import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { signInByEmail, uniqueAddress } from "./accounts";
import { launchBrowser, openPage, personUserAgent } from "./browser";
import { checkDocuments } from "./nu-html-checker";
import { trackPagePath, worldChartTopTrack } from "./site-data";

// Decision 035: the documents a person is served are valid HTML by the Nu HTML checker, anonymous
// pages the edge caches and the signed-in library alike.

const baseURL = inject("baseURL");
let browser: Browser;
let errors: Map<string, string[]>;

async function served(path: string): Promise<string> {
  const response = await fetch(`${baseURL}${path}`, { headers: { "user-agent": personUserAgent } });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.text();
}

beforeAll(async () => {
  const track = trackPagePath(await worldChartTopTrack(baseURL));
  const trackPage = await served(track);
  const artist = /href="(\/artist\/[^"]+)"/.exec(trackPage)?.[1];
  if (!artist) throw new Error("no artist link on the song page");
  const documents = new Map([
    ["home", await served("/")],
    ["charts", await served("/charts")],
    ["track", trackPage],
    ["artist", await served(artist)],
    ["search", await served("/search?term=love")],
    ["concerts", await served("/concerts")],
    ["terms", await served("/terms")],
    ["login", await served("/login")],
  ]);
  browser = await launchBrowser();
  const { page } = await openPage(browser, { userAgent: personUserAgent });
  await signInByEmail(page, "/myshazam", uniqueAddress("valid"));
  const library = await page.context().request.get(`${baseURL}/myshazam`);
  documents.set("library", await library.text());
  errors = await checkDocuments(documents);
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

test.each(["home", "charts", "track", "artist", "search", "concerts", "terms", "login", "library"])(
  "the %s page is valid HTML",
  (name) => {
    // As text, so that a failure prints every message the checker gave.
    expect(errors.get(name)?.join("\n")).toBe("");
  },
);
