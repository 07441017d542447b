import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, viewports } from "./browser";

// Spec 002 §2 touch ripple (§9 "Ripple removed after 600 ms"), with the browser's fake clock.

const baseURL = inject("baseURL");
// The demo lyrics of "New Dawn" are long enough for a show more button: a button that only folds.
const lyricsTrack = "/track/176270815";
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(path: string, options: { reducedMotion?: "reduce" } = {}) {
  const opened = await openPage(browser, { viewport: viewports.phone, hasTouch: true, ...options });
  await opened.page.clock.install();
  await opened.page.goto(`${baseURL}${path}`);
  await opened.page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  // From here on, time moves only when the test says so.
  await opened.page.clock.pauseAt(Date.now() + 60_000);
  return opened;
}

/** A finger down and up at the middle of `selector`, through the browser's input pipeline. */
async function tap(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  const cdp = await page.context().newCDPSession(page);
  const touchPoints = [{ x: box.x + box.width / 4, y: box.y + box.height / 2, id: 1 }];
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  return { x: touchPoints[0]?.x ?? 0, y: touchPoints[0]?.y ?? 0 };
}

test("a finger on a button leaves a ripple where it touched, removed after 600 ms", async () => {
  const { page, errors } = await open(lyricsTrack);
  const button = ".track-lyrics .show-more__button";
  await page.locator(button).scrollIntoViewIfNeeded();
  const before = await page.locator(button).boundingBox();
  const touched = await tap(page, button);
  const ripple = page.locator(`${button}[data-ripple]`);
  await expect(ripple.count()).resolves.toBe(1);
  // Centred on the touch, where the button was (unfolded, the lyrics push it down).
  const host = before;
  const circle = await ripple.evaluate((element) => {
    const after = getComputedStyle(element, "::after");
    return {
      left: Number.parseFloat(after.left),
      top: Number.parseFloat(after.top),
      size: Number.parseFloat(after.width),
      animation: after.animationName,
    };
  });
  // (The circle is placed inside the button's 1px border.)
  expect(Math.abs((host?.x ?? 0) + 1 + circle.left + circle.size / 2 - touched.x)).toBeLessThan(1);
  expect(Math.abs((host?.y ?? 0) + 1 + circle.top + circle.size / 2 - touched.y)).toBeLessThan(1);
  expect(circle.size).toBeGreaterThan(host?.width ?? 0);
  expect(circle.animation).toBe("ripple");
  await page.screenshot({ path: "/tmp/ripple-phone.png" });
  await page.clock.runFor(599);
  await expect(ripple.count()).resolves.toBe(1);
  await page.clock.runFor(1);
  await expect(ripple.count()).resolves.toBe(0);
  // The tap itself did what the button does.
  await expect(page.locator(button).getAttribute("aria-expanded")).resolves.toBe("true");
  expect(errors).toEqual([]);
});

test("a mouse press leaves no ripple, and neither does a finger for a visitor who asks for less motion", async () => {
  const mouse = await open(lyricsTrack);
  await mouse.page.locator(".track-lyrics .show-more__button").click();
  await expect(mouse.page.locator("[data-ripple]").count()).resolves.toBe(0);

  const still = await open(lyricsTrack, { reducedMotion: "reduce" });
  await still.page.locator(".track-lyrics .show-more__button").scrollIntoViewIfNeeded();
  await tap(still.page, ".track-lyrics .show-more__button");
  await expect(still.page.locator("[data-ripple]").count()).resolves.toBe(0);
  await expect(
    still.page.locator(".track-lyrics .show-more__button").getAttribute("aria-expanded"),
  ).resolves.toBe("true");
});
