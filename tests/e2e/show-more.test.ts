import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { axeViolations } from "./axe";
import { launchBrowser, openPage, viewports } from "./browser";
import { screenshot } from "./screenshot";

// Spec 002 §2 show more / less on the catalogue's long content: lyrics (the demo lyrics of "New
// Dawn", 8 lines), bios (Mattias Westlund's, 325 characters, the longest; Martin Severn's, 199, the
// shortest), a long list (The Battle for Wesnoth OST, 39 songs).

const baseURL = inject("baseURL");
const lyricsTrack = "/track/176270815";
const longBioArtist = "/artist/mattias-westlund/329510217";
const shorterBioArtist = "/artist/martin-severn/321794140";
const longAlbum = "/album/1041978012";
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(
  path: string,
  options: { viewport?: { width: number; height: number }; javaScriptEnabled?: boolean } = {},
) {
  const opened = await openPage(browser, {
    viewport: options.viewport ?? viewports.phone,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  await opened.page.goto(`${baseURL}${path}`);
  if (options.javaScriptEnabled !== false) {
    await opened.page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  }
  return opened;
}

/** The visible lyric lines: those whose box is not cut off by the fold. */
async function visibleLyricLines(page: Page): Promise<number> {
  return page.evaluate(() => {
    const text = document.querySelector(".track-lyrics__text");
    if (!text) return -1;
    const bottom = text.getBoundingClientRect().bottom;
    return [...text.querySelectorAll(".track-lyrics__line")].filter(
      (line) => line.getBoundingClientRect().bottom <= bottom + 1,
    ).length;
  });
}

test("long lyrics show four lines and a button that unfolds and folds them, keyboard included", async () => {
  const { page, errors } = await open(lyricsTrack);
  const section = page.locator(".track-lyrics");
  const button = section.getByRole("button", { name: "Show more" });
  await expect(button.getAttribute("aria-expanded")).resolves.toBe("false");
  expect(await visibleLyricLines(page)).toBe(4);
  await screenshot(page, "show-more-lyrics-folded-phone");
  await button.focus();
  await page.keyboard.press("Enter");
  const less = section.getByRole("button", { name: "Show less" });
  await expect(less.getAttribute("aria-expanded")).resolves.toBe("true");
  expect(await visibleLyricLines(page)).toBe(8);
  // The button says what it controls.
  const controls = await less.getAttribute("aria-controls");
  expect(await page.locator(`[id="${controls}"] .track-lyrics__text`).count()).toBe(1);
  await page.keyboard.press("Space");
  await expect(button.getAttribute("aria-expanded")).resolves.toBe("false");
  expect(await visibleLyricLines(page)).toBe(4);
  expect(errors).toEqual([]);
});

test("without a script the whole lyrics show and there is no button to press", async () => {
  const { page } = await open(lyricsTrack, { javaScriptEnabled: false });
  expect(await visibleLyricLines(page)).toBe(8);
  expect(await page.locator(".show-more__button").isVisible()).toBe(false);
});

test("a long bio is folded to three lines; one that fits in three lines on a desktop has no button there", async () => {
  const phone = await open(longBioArtist);
  const bio = phone.page.locator(".artist-bio p");
  const lineHeight = await bio.evaluate((p) => Number.parseFloat(getComputedStyle(p).lineHeight));
  const folded = await bio.evaluate((p) => p.clientHeight);
  expect(Math.round(folded / lineHeight)).toBe(3);
  await phone.page.locator(".artist-bio").getByRole("button", { name: "Show more" }).click();
  expect(await bio.evaluate((p) => p.clientHeight)).toBeGreaterThan(folded);
  await screenshot(phone.page.locator(".artist-bio"), "show-more-bio-phone");

  const desktop = await open(shorterBioArtist, { viewport: viewports.desktop });
  await desktop.page.waitForFunction(() => !document.querySelector(".artist-bio .show-more__button"));
  const text = desktop.page.locator(".artist-bio p");
  expect(Math.round((await text.evaluate((p) => p.clientHeight)) / lineHeight)).toBe(3);
  // The same bio on a phone is longer than three lines: folded, with the button.
  const phoneShorter = await open(shorterBioArtist);
  await expect(
    phoneShorter.page.locator(".artist-bio").getByRole("button", { name: "Show more" }).isVisible(),
  ).resolves.toBe(true);
});

test("a long album shows its first ten songs, then all of them; axe finds nothing either way", async () => {
  const { page, errors } = await open(longAlbum, { viewport: viewports.desktop });
  const rows = page.locator(".item-tracks > li");
  expect(await rows.count()).toBe(39);
  const visibleRows = () =>
    rows.evaluateAll((items) => items.filter((item) => item.checkVisibility()).length);
  expect(await visibleRows()).toBe(10);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Show more" }).click();
  expect(await visibleRows()).toBe(39);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Show less" }).click();
  expect(await visibleRows()).toBe(10);
  // Folding moved the button up; it is still on screen for the finger or eye that pressed it.
  const box = await page.getByRole("button", { name: "Show more" }).boundingBox();
  expect(box && box.y >= 0 && box.y + box.height <= viewports.desktop.height).toBe(true);
  expect(errors).toEqual([]);
});
