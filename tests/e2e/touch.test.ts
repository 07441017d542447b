import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, viewports } from "./browser";
import { screenshot } from "./screenshot";

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

async function open(path: string, options: { reducedMotion?: "reduce"; fakeClock?: boolean } = {}) {
  const { fakeClock = true, ...contextOptions } = options;
  const opened = await openPage(browser, { viewport: viewports.phone, hasTouch: true, ...contextOptions });
  if (fakeClock) await opened.page.clock.install();
  await opened.page.goto(`${baseURL}${path}`);
  await opened.page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  // From here on, time moves only when the test says so.
  if (fakeClock) await opened.page.clock.pauseAt(Date.now() + 60_000);
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
  await screenshot(page, "ripple-phone");
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

/** A one-finger drag through `points`, each `stepMs` apart on the event clock (CDP timestamps). */
async function drag(page: Page, points: { x: number; y: number }[], stepMs: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now() / 1000;
  for (const [index, point] of points.entries()) {
    await cdp.send("Input.dispatchTouchEvent", {
      type: index === 0 ? "touchStart" : "touchMove",
      touchPoints: [{ ...point, id: 1 }],
      timestamp: start + (index * stepMs) / 1000,
    });
  }
  await cdp.send("Input.dispatchTouchEvent", {
    type: "touchEnd",
    touchPoints: [],
    timestamp: start + (points.length * stepMs) / 1000,
  });
}

/** Opens the bottom-up debug sheet with four fingers; its title's position. */
async function openSheet(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const touchPoints = [0, 1, 2, 3].map((id) => ({ x: 100 + id * 40, y: 300, id }));
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  const sheet = page.locator("dialog.overlay--bottomup");
  await sheet.waitFor();
  await page.waitForFunction(
    () => document.querySelector("dialog.overlay--bottomup")?.getAnimations().length === 0,
  );
  const title = await page.locator("#debug-tap-title").boundingBox();
  if (!title) throw new Error("no sheet title");
  return { sheet, x: title.x + 20, y: title.y + 5 };
}

test("the bottom-up sheet: a sideways drag locks sideways and leaves it, a short slow drag down springs back, a flick down closes it", async () => {
  // A swipe's speed is read from its events' time stamps, which the drags below set (a fake clock
  // would stop them).
  const { page, errors } = await open("/", { fakeClock: false });
  const { sheet, x, y } = await openSheet(page);
  const steps = (dx: number, dy: number, count: number) =>
    Array.from({ length: count + 1 }, (_, index) => ({
      x: x + (dx * index) / count,
      y: y + (dy * index) / count,
    }));

  // Across first (locked sideways), then down: the sheet does not follow, it stays. (Chromium
  // holds back a finger's first moves inside its touch slop, so the steps are 20 px.)
  await drag(page, [...steps(40, 0, 2), { x: x + 40, y: y + 300 }], 50);
  await expect(sheet.isVisible()).resolves.toBe(true);
  await expect(
    sheet.locator(".overlay__content").evaluate((c) => (c as HTMLElement).style.transform),
  ).resolves.toBe("");

  // 60 px down over 600 ms (0.1 px/ms, a short part of its height): it springs back.
  await drag(page, steps(0, 60, 12), 50);
  await expect(sheet.isVisible()).resolves.toBe(true);
  await expect(
    sheet.locator(".overlay__content").evaluate((c) => (c as HTMLElement).style.transform),
  ).resolves.toBe("");

  // The same 60 px in 30 ms: a flick, it closes.
  await drag(page, steps(0, 60, 3), 10);
  await sheet.waitFor({ state: "detached" });
  expect(errors).toEqual([]);
});
