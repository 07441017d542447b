import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { searchDebounceMs, searchLiveMessageMs } from "#app/search/search-groups.ts";
import { launchBrowser, openPage, viewports } from "./browser";
import { screenshot } from "./screenshot";

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const input = "header .search-box__input";
const popup = "header .search-box__popup";

/** A page with the search calls it makes recorded, hydrated and ready. */
async function searchPage(
  viewport: (typeof viewports)[keyof typeof viewports],
  path = "/home",
  colorScheme: "light" | "dark" = "light",
) {
  const opened = await openPage(browser, { viewport, colorScheme });
  const searches: string[] = [];
  opened.page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.includes("/search")) searches.push(`${url.pathname}${url.search}`);
  });
  await opened.page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
  // Hydrated and started; the combobox itself loads at the first focus (see the test below).
  await opened.page.waitForSelector("html[data-ready]");
  return { ...opened, searches: () => searches.filter((url) => url.startsWith("/services/")) };
}

async function optionTexts(page: Page, group: string): Promise<string[]> {
  return page.locator(`${popup} [role=group]:has([id$="-${group}-title"]) [role=option]`).allTextContents();
}

async function highlighted(page: Page): Promise<string | null> {
  const id = await page.getAttribute(input, "aria-activedescendant");
  if (!id) return null;
  return page.locator(`[id="${id}"]`).textContent();
}

test("typing searches once after the debounce, arrows move the highlight, Enter shows more and opens a song", async () => {
  // The country of the visit (here the co parameter) is the catalogue storefront searched.
  const { page, errors, failures, unanswered, searches } = await searchPage(viewports.desktop, "/home?co=DE");
  await page.click(input);
  await page.keyboard.type("lupus", { delay: 40 });
  await page.waitForSelector(`${popup}:not([hidden]) [role=option]`);
  // One call for the whole word: the keystrokes came faster than the 500 ms debounce.
  expect(searches()).toEqual(["/services/amapi/v1/catalog/de/search?types=songs,artists&term=lupus&limit=3"]);
  expect(await page.getAttribute(input, "aria-expanded")).toBe("true");
  const listbox = await page.getAttribute(input, "aria-controls");
  expect(await page.locator(`[id="${listbox}"]`).getAttribute("role")).toBe("listbox");
  const songs = await optionTexts(page, "songs");
  expect(songs).toHaveLength(4);
  expect(songs[3]).toBe("Show More");
  expect(await optionTexts(page, "artists")).toEqual(["LupusMechanicus"]);
  expect(await page.locator(`${popup} [id$="-recent-title"]`).count()).toBe(0);
  // The polite live region announces the counts, and forgets them after 3000 ms.
  const live = page.locator("header .search-box [role=status]");
  expect(await live.getAttribute("aria-live")).toBe("polite");
  expect(await live.textContent()).toBe("3 songs and 1 artist found");
  await screenshot(page, "search-dropdown-desktop");

  await page.keyboard.press("ArrowDown");
  expect(await highlighted(page)).toBe(songs[0]);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  expect(await highlighted(page)).toBe("Show More");
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    (selector) =>
      document.querySelectorAll(`${selector} [role=group]:first-child [role=option]`).length === 7,
    popup,
  );
  expect(searches()[1]).toBe("/services/amapi/v1/catalog/de/search?offset=3&term=lupus&types=songs&limit=3");
  // The highlight moved to the first song Show More brought.
  const more = await optionTexts(page, "songs");
  expect(await highlighted(page)).toBe(more[3]);
  // The live message is cleared searchLiveMessageMs after it was set: wait for that state.
  await expect.poll(() => live.textContent(), { timeout: searchLiveMessageMs + 5000 }).toBe("");
  expect(errors).toEqual([]);

  const target = await page.locator(`[id="${await page.getAttribute(input, "aria-activedescendant")}"]`);
  expect(await target.getAttribute("aria-selected")).toBe("true");
  const song = await target.textContent();
  await page.keyboard.press("Enter");
  // The URL is what is checked here (track-page.test.ts checks the page): not every picture's load.
  await page.waitForURL(/\/track\/\d+\/[a-z0-9-]+$/, { waitUntil: "commit" }).catch((error: Error) => {
    throw new Error(
      `${error.message}\nEnter on ${song}; the page is at ${page.url()}; ${failures.join("; ") || "no request failed"}; unanswered: ${unanswered().join(", ") || "none"}; ${errors.join("; ")}`,
    );
  });
  const stored = await page.evaluate(() => localStorage.getItem("search.recents"));
  expect(JSON.parse(stored ?? "{}").data).toEqual(["lupus"]);
});

test("the combobox's code loads at the first focus and takes over what was typed, the focus and the caret", async () => {
  const { page, errors } = await searchPage(viewports.desktop);
  const loaded: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/search-combobox-")) loaded.push(request.url());
  });
  // A first visit does not load it, and the plain form makes no promise of a popup.
  expect(
    await page.evaluate(() =>
      performance.getEntriesByType("resource").some((entry) => entry.name.includes("/search-combobox-")),
    ),
  ).toBe(false);
  expect(await page.getAttribute(input, "role")).toBeNull();
  // Text put in before the code arrives (no focus event) stays when it does.
  await page.evaluate((selector) => {
    const box = document.querySelector<HTMLInputElement>(selector);
    if (box) box.value = "lupu";
  }, input);
  await page.focus(input);
  await page.waitForSelector(`${input}[role=combobox]`);
  expect(loaded).toHaveLength(1);
  expect(await page.inputValue(input)).toBe("lupu");
  expect(await page.evaluate(() => document.activeElement?.classList.contains("search-box__input"))).toBe(
    true,
  );
  await page.keyboard.type("s");
  await page.waitForSelector(`${popup}:not([hidden]) [role=option]`);
  expect(await page.inputValue(input)).toBe("lupus");
  expect(errors).toEqual([]);
});

test("tabbed on to the search button before the combobox's code arrived, the focus stays on the button", async () => {
  const { page, errors } = await searchPage(viewports.desktop);
  // The code held until the focus has moved on: a slow phone's network.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked = () => {};
  const requested = new Promise<void>((resolve) => {
    asked = resolve;
  });
  await page.route("**/search-combobox-*", async (route) => {
    asked();
    await held;
    await route.continue();
  });
  await page.focus(input);
  await requested;
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.className)).toBe("search-box__submit");
  release();
  await page.waitForSelector(`${input}[role=combobox]`);
  expect(await page.evaluate(() => document.activeElement?.className)).toBe("search-box__submit");
  // The next Tab goes on from there, to the header's first section.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Charts");
  expect(errors).toEqual([]);
});

test("Escape, Tab and a click outside close the dropdown; focus opens it again", async () => {
  const { page, errors } = await searchPage(viewports.desktop);
  await page.click(input);
  await page.keyboard.type("the");
  await page.waitForSelector(`${popup}:not([hidden]) [role=option]`);

  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Escape");
  expect(await page.getAttribute(input, "aria-expanded")).toBe("false");
  expect(await page.getAttribute(input, "aria-activedescendant")).toBeNull();
  expect(await page.isVisible(popup)).toBe(false);
  expect(await page.inputValue(input)).toBe("the");

  await page.keyboard.press("ArrowDown");
  expect(await page.getAttribute(input, "aria-expanded")).toBe("true");
  await page.keyboard.press("Tab");
  expect(await page.getAttribute(input, "aria-expanded")).toBe("false");
  // Tab went on to the search button.
  expect(await page.evaluate(() => document.activeElement?.className)).toBe("search-box__submit");

  await page.click(input);
  expect(await page.getAttribute(input, "aria-expanded")).toBe("true");
  await page.mouse.click(5, 600);
  expect(await page.getAttribute(input, "aria-expanded")).toBe("false");
  expect(errors).toEqual([]);
});

test("recent searches: stored on submit, shown on focus with an empty box, Enter searches one again", async () => {
  const { page, errors } = await searchPage(viewports.desktop);
  // An empty box on first focus: the Recent group says there are none.
  await page.click(input);
  await page.waitForSelector(`${popup}:not([hidden])`);
  expect(await page.locator(`${popup} .search-box__message`).textContent()).toBe("No recent searches");

  // Enter with nothing highlighted submits to the search page (a client navigation once hydrated).
  await page.keyboard.type("wesnoth");
  await page.keyboard.press("Enter");
  await page.waitForURL(`${baseURL}/search?term=wesnoth`);
  await page.waitForSelector("h1:has-text('Results for “wesnoth”')");
  await page.fill(input, "");
  await page.keyboard.type("defeat");
  await page.keyboard.press("Enter");
  await page.waitForURL(`${baseURL}/search?term=defeat`);

  // Both searches are remembered, newest first, as a record with an expiry.
  const record = JSON.parse((await page.evaluate(() => localStorage.getItem("search.recents"))) ?? "{}");
  expect(record.data).toEqual(["defeat", "wesnoth"]);
  expect(record.expires).toBeGreaterThan(Date.now());

  await page.goto(`${baseURL}/home`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-ready]");
  await page.focus(input);
  await page.waitForSelector(`${popup}:not([hidden]) [role=option]`);
  expect(await optionTexts(page, "recent")).toEqual(["defeat", "wesnoth"]);
  await screenshot(page, "search-recents-desktop");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  expect(await page.inputValue(input)).toBe("wesnoth");
  // The group's title shows while it loads; its options come with the answer.
  await page.waitForSelector(`${popup} [role=group]:has([id$="-songs-title"]) [role=option]`);
  expect(await page.locator(`${popup} [id$="-recent-title"]`).count()).toBe(0);
  expect((await optionTexts(page, "songs")).length).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

test("a failing search is only logged: the box stays usable", async () => {
  const { page, errors } = await searchPage(viewports.desktop);
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning") warnings.push(message.text());
  });
  const isSearch = (url: URL) =>
    url.pathname.startsWith("/services/amapi/") && url.pathname.endsWith("/search");
  await page.route(isSearch, (route) => route.abort("failed"));
  // The warning is what the page does once the debounced request failed: wait for it.
  const failed = page.waitForEvent("console", {
    predicate: (message) =>
      message.type() === "warning" && message.text().startsWith("search: the search request failed"),
    timeout: searchDebounceMs + 10_000,
  });
  await page.click(input);
  await page.keyboard.type("lupus");
  await failed;
  expect(warnings.some((text) => text.startsWith("search: the search request failed"))).toBe(true);
  expect(await page.locator(`${popup} [role=option]`).count()).toBe(0);
  // Failed requests are network errors in the console too; nothing else went wrong.
  expect(errors.filter((text) => !text.startsWith("Failed to load resource"))).toEqual([]);

  await page.unroute(isSearch);
  await page.keyboard.type("m");
  await page.waitForSelector(`${popup}:not([hidden]) [role=option]`);
  expect((await optionTexts(page, "songs")).length).toBeGreaterThan(0);
});

test("a click on Show More and on an artist works with the mouse (tablet, dark scheme)", async () => {
  const { page, errors } = await searchPage(viewports.tablet, "/home", "dark");
  await page.click(input);
  // "t": words starting with it (full-text prefix, decision 033): many songs, three artists.
  await page.keyboard.type("t");
  await page.waitForSelector(`${popup}:not([hidden]) [role=option]`);
  const before = (await optionTexts(page, "songs")).length;
  await page.click(`${popup} [role=group]:has([id$="-songs-title"]) .search-box__more`);
  await page.waitForFunction(
    ({ selector, count }) =>
      document.querySelectorAll(`${selector} [role=group]:first-child [role=option]:not(.search-box__more)`)
        .length > count,
    { selector: popup, count: before - 1 },
  );
  expect(await page.evaluate(() => document.activeElement?.classList.contains("search-box__input"))).toBe(
    true,
  );
  await screenshot(page, "search-dropdown-tablet");
  expect(errors).toEqual([]);
  await page.locator(`${popup} [role=group]:has([id$="-artists-title"]) [role=option]`).first().click();
  await page.waitForURL(/\/artist\/[a-z0-9-]+\/\d+$/);
});

test("on a phone the box has its own row under the brand and the dropdown fits the screen (in German)", async () => {
  const { page, errors } = await searchPage(viewports.phone, "/de");
  const header = await page.locator("header").boundingBox();
  const box = await page.locator("header .search-box").boundingBox();
  const brand = await page.locator("header .brand").boundingBox();
  if (!header || !box || !brand) throw new Error("the header is not drawn");
  expect(box.y).toBeGreaterThanOrEqual(brand.y + brand.height);
  expect(box.width).toBeGreaterThan(viewports.phone.width - 48);
  expect(header.height).toBeLessThan(140);
  await page.click(input);
  await page.keyboard.type("lupus");
  await page.waitForSelector(`${popup}:not([hidden]) [role=option]`);
  expect(await page.locator(`${popup} [id$="-songs-title"]`).textContent()).toBe("Titel");
  expect((await optionTexts(page, "songs")).at(-1)).toBe("Mehr anzeigen");
  expect(await page.locator("header .search-box [role=status]").textContent()).toBe(
    "3 Titel und 1 Künstler gefunden",
  );
  const dropdown = await page.locator(popup).boundingBox();
  expect(dropdown?.width).toBe(300);
  expect((dropdown?.x ?? 0) + (dropdown?.width ?? 0)).toBeLessThanOrEqual(viewports.phone.width);
  await screenshot(page, "search-dropdown-phone");
  expect(errors).toEqual([]);
});

test.each([
  ["phone", viewports.phone],
  ["desktop", viewports.desktop],
] as const)("the search page works without JavaScript (%s)", async (name, viewport) => {
  const { page, errors } = await openPage(browser, { viewport, javaScriptEnabled: false });
  await page.goto(`${baseURL}/search`);
  await screenshot(page, `search-page-empty-${name}`, { fullPage: true });
  // The header box is a plain form: typing and Enter load the server-rendered results.
  await page.fill(input, "lupus");
  await page.press(input, "Enter");
  await page.waitForURL(`${baseURL}/search?term=lupus`);
  expect(await page.locator("h1").textContent()).toBe("Results for “lupus”");
  expect(await page.locator(".search-page .track-row").count()).toBe(10);
  expect(await page.locator(".search-artists__row").count()).toBe(1);
  await screenshot(page, `search-page-results-${name}`, { fullPage: true });
  await page.click("nav[aria-label='Pages of songs'] a[rel=next]");
  await page.waitForURL(`${baseURL}/search?term=lupus&songs=10`);
  expect(await page.locator(".search-page .track-row").count()).toBe(10);
  await page.click("nav[aria-label='Pages of songs'] a[rel=prev]");
  await page.waitForURL(`${baseURL}/search?term=lupus`);
  // The page's own form, with a term nothing matches.
  await page.fill("#search-page-term", "qqzzxxq");
  await page.press("#search-page-term", "Enter");
  await page.waitForURL(`${baseURL}/search?term=qqzzxxq`);
  expect(await page.locator(".search-page__state h2").textContent()).toBe("No results for “qqzzxxq”");
  await screenshot(page, `search-page-none-${name}`, { fullPage: true });
  // Without JavaScript the box never claims to be a combobox.
  expect(await page.getAttribute(input, "role")).toBeNull();
  expect(errors).toEqual([]);
});

test("the search page hydrates without errors and paging works as client navigation", async () => {
  const { page, errors } = await searchPage(viewports.desktop, "/search?term=lupus");
  await page.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
  });
  await page.click("nav[aria-label='Pages of songs'] a[rel=next]");
  await page.waitForURL(`${baseURL}/search?term=lupus&songs=10`);
  expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
  expect(await page.locator(".search-page .track-row").count()).toBe(10);
  expect(errors).toEqual([]);
});

/** Where a found lyric line stands: marked in bold, on screen and not folded away under the fold. */
function foundLineState(page: Page, id: string) {
  return page.evaluate((lineId) => {
    const line = document.getElementById(lineId);
    if (!line) return undefined;
    const box = line.getBoundingClientRect();
    const atCentre = document.elementFromPoint(
      box.left + Math.min(box.width, 20) / 2,
      box.top + box.height / 2,
    );
    return {
      weight: getComputedStyle(line).fontWeight,
      onScreen: box.top >= 0 && box.bottom <= window.innerHeight,
      visible: atCentre === line || line.contains(atCentre),
      foldButtonShown: [...document.querySelectorAll(".track-lyrics .show-more__button")].some(
        (button) => (button as HTMLElement).offsetParent !== null,
      ),
    };
  }, id);
}

/** What a person sees of the found line once the page has settled: bold, in view, not folded away. */
const foundLineShown = { weight: "700", onScreen: true, visible: true, foldButtonShown: false };

/**
 * Until the found line is shown as a person sees it, every part at once: a wait on some of them
 * passed while the router's scroll still had the line under the sticky header.
 */
function waitForFoundLine(page: Page, id: string) {
  return expect.poll(() => foundLineState(page, id), { timeout: 10_000 }).toEqual(foundLineShown);
}

/**
 * Counts, from the first byte of every document, the lyric lines taken out of the page: the line
 * the server sent must stay the one shown, since a replaced element loses `:target`.
 */
async function countReplacedLines(page: Page) {
  await page.addInitScript(() => {
    const counter = window as unknown as { replacedLyricLines: number };
    counter.replacedLyricLines = 0;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.removedNodes)
          if (
            node instanceof Element &&
            (node.matches(".track-lyrics__line") || node.querySelector(".track-lyrics__line"))
          )
            counter.replacedLyricLines += 1;
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { replacedLyricLines: number }).replacedLyricLines);
}

test("a lyric line found by search opens its song at that line, marked, on a client navigation and on a load", async () => {
  const { page, errors } = await searchPage(viewports.phone, "/home");
  // A song's page with folded lyrics; a line under the fold, said once in the song, is searched for.
  const chart = await (
    await fetch(`${baseURL}/services/amapi/v1/catalog/gb/playlists/ip-world-chart/tracks?limit=200`)
  ).json();
  const keys = (chart as { data: { attributes: { hasLyrics?: boolean; shazamKey: string } }[] }).data
    .filter((entry) => entry.attributes.hasLyrics)
    .map((entry) => entry.attributes.shazamKey);
  let target: { path: string; index: number; text: string } | undefined;
  for (const key of keys) {
    await page.goto(`${baseURL}/track/${key}`, { waitUntil: "domcontentloaded" });
    const lines = await page.locator(".track-lyrics__line").allTextContents();
    const index = lines.findIndex(
      (text, at) =>
        at >= 5 &&
        text.split(/\s+/).length >= 4 &&
        lines.indexOf(text) === at &&
        lines.lastIndexOf(text) === at,
    );
    const text = lines[index];
    if (index >= 0 && text) {
      target = { path: new URL(page.url()).pathname, index, text };
      break;
    }
  }
  if (!target) throw new Error("no song of the world chart has a long line of lyrics under the fold");
  const id = `lyrics-line-${target.index}`;

  await page.goto(`${baseURL}/search?term=${encodeURIComponent(target.text)}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-ready]");
  const hit = page.locator(`.search-page a.track-row__title[href="${target.path}#${id}"]`);
  expect(await hit.count(), `the search page links ${target.path}#${id}`).toBe(1);
  await hit.click();
  await page.waitForURL(`${baseURL}${target.path}#${id}`);
  // Client-side navigation: history.pushState never updates `:target`; the page marks the line itself.
  await waitForFoundLine(page, id);
  await screenshot(page, "search-lyric-line-opened-phone");

  // A load of the same address (a shared link): marked by `:target` before any script, and still
  // after hydration, on the very element the server sent.
  const replacedLines = await countReplacedLines(page);
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector("html[data-ready]");
  await waitForFoundLine(page, id);
  expect(await page.locator(`[id="${id}"]`).evaluate((line) => line.matches(":target"))).toBe(true);
  expect(await replacedLines()).toBe(0);
  expect(errors).toEqual([]);
});
