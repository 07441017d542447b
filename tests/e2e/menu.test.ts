import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { axeViolations } from "./axe";
import { launchBrowser, openPage, viewports } from "./browser";
import { trackPagePath, worldChartTopTrack } from "./site-data";

// Spec 002 §2 menu, placed around its anchor; §4 loaded on demand through the importer.

const baseURL = inject("baseURL");
let browser: Browser;
let trackPath: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const track = await worldChartTopTrack(baseURL);
  trackPath = trackPagePath(track);
});

afterAll(async () => {
  await browser?.close();
});

async function openTrack(viewport: { width: number; height: number }) {
  const opened = await openPage(browser, { viewport });
  const menuScripts: string[] = [];
  opened.page.on("request", (request) => {
    if (/\/build\/.*menu-[A-Z0-9]+\.js$/.test(request.url())) menuScripts.push(request.url());
  });
  await opened.page.goto(`${baseURL}${trackPath}`, { waitUntil: "networkidle" });
  await opened.page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  return {
    ...opened,
    menuScripts,
    button: opened.page.locator(".track-hero button", { hasText: "Share this song" }),
  };
}

/** Where the button and the menu are once the menu has finished growing. */
async function boxes(page: Page) {
  await page.waitForFunction(() => document.querySelector("dialog.menu")?.getAnimations().length === 0);
  const button = await page.locator(".track-hero button[aria-haspopup=menu]").boundingBox();
  const menu = await page.locator("dialog.menu").boundingBox();
  if (!button || !menu) throw new Error("no button or menu");
  return { button, menu };
}

test("the share menu opens below its button, loads its code once, and the keyboard works it", async () => {
  const { page, errors, menuScripts, button } = await openTrack(viewports.desktop);
  expect(menuScripts).toEqual([]);
  await button.click();
  const menu = page.getByRole("menu", { name: "Share this song" });
  await menu.waitFor();
  expect(menuScripts).toHaveLength(1);
  await expect(button.getAttribute("aria-expanded")).resolves.toBe("true");
  await expect(page.locator("dialog.menu").getAttribute("data-placement")).resolves.toBe("below");
  const { button: at, menu: box } = await boxes(page);
  expect(Math.abs(box.y - (at.y + at.height))).toBeLessThan(1);
  expect(Math.abs(box.x - at.x)).toBeLessThan(1);
  const items = menu.getByRole("menuitem");
  await expect(items.allTextContents()).resolves.toEqual(["Share on Twitter", "Share by email"]);
  await expect(items.first().evaluate((item) => item === document.activeElement)).resolves.toBe(true);
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1).evaluate((item) => item === document.activeElement)).resolves.toBe(true);
  await page.keyboard.press("ArrowDown");
  await expect(items.first().evaluate((item) => item === document.activeElement)).resolves.toBe(true);
  await page.keyboard.press("End");
  await expect(items.nth(1).evaluate((item) => item === document.activeElement)).resolves.toBe(true);
  // A screen reader gets a named menu of items with the menu open.
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "detached" });
  await expect(button.evaluate((node) => node === document.activeElement)).resolves.toBe(true);
  await expect(button.getAttribute("aria-expanded")).resolves.toBe("false");
  // Opened again with the keyboard: the code is not fetched a second time; a click outside closes it.
  await page.keyboard.press("Enter");
  await menu.waitFor();
  expect(menuScripts).toHaveLength(1);
  await page.mouse.click(5, 880);
  await menu.waitFor({ state: "detached" });
  expect(errors).toEqual([]);
  await page.context().close();
});

test("near the bottom of a phone's screen the menu opens above its button", async () => {
  const { page, button } = await openTrack(viewports.phone);
  await button.evaluate((node) =>
    window.scrollBy(0, node.getBoundingClientRect().bottom - window.innerHeight + 8),
  );
  await button.click();
  await page.getByRole("menu").waitFor();
  await expect(page.locator("dialog.menu").getAttribute("data-placement")).resolves.toBe("above");
  const { button: at, menu: box } = await boxes(page);
  expect(Math.abs(box.y + box.height - at.y)).toBeLessThan(1);
  await page.context().close();
});

test("a menu that fails to load says so in the info bar, and the next press loads it", async () => {
  const { page, button } = await openTrack(viewports.desktop);
  await page.route(/\/build\/.*menu-[A-Z0-9]+\.js$/, (route) => route.abort());
  await button.click();
  await page.locator(".info-bar", { hasText: "Unable to load." }).waitFor();
  await page.unroute(/\/build\/.*menu-[A-Z0-9]+\.js$/);
  await button.click();
  await page.getByRole("menu").waitFor();
  await page.context().close();
});
