import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { axeViolations } from "./axe";
import { launchBrowser, openPage, viewports } from "./browser";
import { screenshot } from "./screenshot";

// Spec 002 §2 /track/webrec/interstitial: an overlay address. Visited directly it opens over the
// track's page, drawn from the track's data; closing it leaves that page.

const baseURL = inject("baseURL");
// "New Dawn" by LupusMechanicus, of the catalogue.
const key = "176270815";
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

test("visited directly it opens over the track page, with the track's title, artist and colour; Escape leaves the track page", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone });
  // Not "load": what is checked is the takeover once the page's script is ready, not every picture
  // (a busy machine took over 30 s to finish loading them once).
  await page.goto(`${baseURL}/track/webrec/interstitial?key=${key}&title=Not%20this`, {
    waitUntil: "domcontentloaded",
  });
  await page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  const takeover = page.getByRole("dialog", { name: "New Dawn" });
  await takeover.waitFor();
  await expect(takeover.getByText("LupusMechanicus").isVisible()).resolves.toBe(true);
  await expect(page.getByText("Not this").count()).resolves.toBe(0);
  // The track's heading colour, behind the takeover.
  const [heading, behind] = await Promise.all([
    page.locator(".track-hero").evaluate((hero) => getComputedStyle(hero).backgroundColor),
    page.locator("dialog.recognition-interstitial").evaluate((d) => getComputedStyle(d).backgroundColor),
  ]);
  expect(behind).not.toBe("rgba(0, 0, 0, 0)");
  expect(heading).toContain(behind.replace(/\)$/, ""));
  // The track page is behind it, inert; Close has the focus.
  await expect(page.locator("h1", { hasText: "New Dawn" }).count()).resolves.toBe(1);
  await expect(
    takeover.getByRole("button", { name: "Close" }).evaluate((b) => b === document.activeElement),
  ).resolves.toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, "interstitial-address-phone");
  await page.keyboard.press("Escape");
  await takeover.waitFor({ state: "detached" });
  await page.waitForURL((url) => url.pathname.startsWith(`/track/${key}/`));
  await expect(page.locator("h1", { hasText: "New Dawn" }).isVisible()).resolves.toBe(true);
  expect(errors).toEqual([]);
});

test("a key that is not a track key is a 400 with the localized invalid-link message", async () => {
  const { page } = await openPage(browser, { viewport: viewports.desktop });
  const response = await page.goto(`${baseURL}/fr/track/webrec/interstitial?key=%3Cscript%3E`);
  expect(response?.status()).toBe(400);
  await expect(page.getByText("Ce lien n'est pas valide", { exact: false }).count()).resolves.toBeGreaterThan(
    0,
  );
  await expect(page.locator("script", { hasText: "<script>" }).count()).resolves.toBe(0);
});
