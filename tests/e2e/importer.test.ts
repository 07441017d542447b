import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import enCommon from "#locales/en/common.json";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { screenshot } from "./screenshot";

// The on-demand importer and the info bar (decision 025) in Chromium: the recognition code loads at
// the first press of the listen button. Its request is held or failed by interception, and the
// page's clock is Playwright's fake one, so the 500 ms / 5 s / 2 s / 5 s steps are exact.

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const recognitionCode = /\/build\/_shared\/page-recognition-[^/]+\.js$/;

async function identifyPage(intercept: (route: Route) => unknown): Promise<{ page: Page; errors: string[] }> {
  const opened = await openPage(browser, { viewport: viewports.phone, userAgent: personUserAgent });
  await opened.page.clock.install();
  await opened.page.route(recognitionCode, intercept);
  await opened.page.goto(`${baseURL}/identify`);
  const button = opened.page.getByRole("button", { name: "Tap to listen" });
  await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
  return opened;
}

const infoBar = (page: Page) => page.locator(".info-bar[role=status]");

async function press(page: Page): Promise<void> {
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.getByRole("button", { name: "Tap to listen" }).click();
}

test("a slow load: nothing before 500 ms, then loading, then 'taking longer' at 5 s; gone once loaded", async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const { page } = await identifyPage(async (route) => {
    await held;
    await route.continue();
  });
  await press(page);
  await page.clock.runFor(499);
  expect(await infoBar(page).textContent()).toBe("");
  await page.clock.runFor(1);
  await expect.poll(() => infoBar(page).textContent()).toBe(enCommon.importer.loading);
  await page.clock.runFor(4500);
  await expect.poll(() => infoBar(page).textContent()).toBe(enCommon.importer.slow);
  await screenshot(page, "importer-slow-phone");
  release();
  await expect.poll(() => infoBar(page).textContent()).toBe("");
  await page.context().close();
});

test.each([
  ["offline", enCommon.error.offline],
  ["a failing server", enCommon.error.ops],
])(
  "a failed load, %s: 'Unable to load.', 2 s later why (and online the ad block hint), hidden 5 s after",
  async (cause, why) => {
    const { page } = await identifyPage((route) =>
      cause === "offline" ? route.abort("internetdisconnected") : route.fulfill({ status: 500, body: "" }),
    );
    if (cause === "offline") await page.context().setOffline(true);
    await press(page);
    await expect.poll(() => infoBar(page).textContent()).toBe(enCommon.importer.failed);
    await page.clock.runFor(1999);
    expect(await infoBar(page).textContent()).toBe(enCommon.importer.failed);
    await page.clock.runFor(1);
    await expect.poll(() => infoBar(page).textContent()).toBe(why);
    await screenshot(page, `importer-failed-${cause === "offline" ? "offline" : "server"}-phone`);
    if (cause !== "offline") {
      // Online, a script that does not load is most often blocked: the spec's ad block hint, 2 s on.
      await page.clock.runFor(2000);
      await expect.poll(() => infoBar(page).textContent()).toBe(enCommon.error.adblock);
    }
    await page.clock.runFor(5000);
    await expect.poll(() => infoBar(page).textContent()).toBe("");
    // The button stays for another try.
    expect(await page.getByRole("button", { name: "Tap to listen" }).isEnabled()).toBe(true);
    await page.context().close();
  },
);
