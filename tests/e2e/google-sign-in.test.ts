import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, viewports } from "./browser";
import { screenshot } from "./screenshot";

// Signing in with the web provider as a person does: the consent screen, the login popup
// (600×500) at the stand-in provider (tests/e2e/stand-in-issuer.ts), Allow, the popup closing by
// itself and the page signed in; Deny; and a browser that blocks the popup.

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

test("continue with Google in the login popup, allow, land back signed in, the popup gone", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.desktop });
  await page.goto(`${baseURL}/charts`);
  await page.getByRole("link", { name: "Sign in", exact: true }).click();
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.waitForURL(/\/login\/google\?redirect=%2Fcharts/);
  await screenshot(page, "google-consent-desktop");
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("link", { name: "Continue to Google" }).click(),
  ]);
  await popup.getByRole("heading", { name: "Allow Tunewave?" }).waitFor();
  expect(await popup.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([600, 500]);
  await Promise.all([popup.waitForEvent("close"), popup.getByRole("link", { name: "Allow" }).click()]);
  await page.waitForURL(`${baseURL}/charts`);
  const menu = page.locator("summary[aria-label='Your account']");
  await menu.waitFor();
  await menu.click();
  await page.getByText(/Signed in as google\.person\d+/).waitFor();
  const status = await page.evaluate(async () => (await fetch("/secure/status")).json());
  expect(status).toMatchObject({ loggedin: true, method: "google" });
  expect(errors).toEqual([]);
});

test("deny at the provider: the consent screen says so, nobody is signed in", async () => {
  const { page } = await openPage(browser, { viewport: viewports.phone });
  await page.goto(`${baseURL}/login/google`);
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("link", { name: "Continue to Google" }).click(),
  ]);
  await Promise.all([popup.waitForEvent("close"), popup.getByRole("link", { name: "Deny" }).click()]);
  await page
    .getByRole("alert")
    .filter({ hasText: "You didn't allow Tunewave to use your Google account" })
    .waitFor();
  await screenshot(page, "google-declined-phone");
  expect(await page.evaluate(async () => (await fetch("/secure/status")).status)).toBe(401);
});

test("a blocked popup shows the spec's 'popup blocked' alert", async () => {
  const { page } = await openPage(browser, { viewport: viewports.phone });
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto(`${baseURL}/login/google`);
  await page.getByRole("link", { name: "Continue to Google" }).click();
  await page.getByRole("alert").filter({ hasText: "The sign-in window was blocked" }).waitFor();
  await screenshot(page, "google-popup-blocked-phone");
});

test("without script the same link signs in in the window itself", async () => {
  const { page } = await openPage(browser, { viewport: viewports.desktop, javaScriptEnabled: false });
  await page.goto(`${baseURL}/login/google?redirect=%2Fcharts`);
  await page.getByRole("link", { name: "Continue to Google" }).click();
  await page.getByRole("link", { name: "Allow" }).click();
  await page.waitForURL(`${baseURL}/charts`);
  await page.locator("summary[aria-label='Your account']").waitFor();
});
