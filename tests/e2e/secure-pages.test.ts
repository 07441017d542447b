import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { signInByEmail, uniqueAddress } from "./accounts";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { screenshot } from "./screenshot";

// A secure page in the browser (spec 000 §2 "/secure/...", 002 §7): it asks /secure/status when
// shown, and a 401 with redirectUrl sends the person to sign in, with {redirectPath} the page's
// own path and query. And the error page of an unauthorized visit offers sign-in (000 §8).

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

test("a secure page asks /secure/status; signed in it stays, a session ended since sends the person to sign in and back", async () => {
  const { page, errors } = await openPage(browser, {
    viewport: viewports.desktop,
    userAgent: personUserAgent,
  });
  await signInByEmail(page, "/myshazam", uniqueAddress("secure"));

  const checked = page.waitForResponse((response) => new URL(response.url()).pathname === "/secure/status");
  await page.goto(`${baseURL}/secure/myshazam?ref=e2e`);
  expect((await checked).status()).toBe(200);
  await page.getByRole("heading", { name: "No songs yet" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/secure/myshazam");

  // The session ends between the server's check and the browser's: /secure/status answers what it
  // answers without a session (asked here without cookies, so the answer is the service's own).
  const ended = await fetch(`${baseURL}/secure/status`);
  expect(ended.status).toBe(401);
  const body = await ended.text();
  expect(JSON.parse(body)).toMatchObject({ redirectUrl: "/login?redirect={redirectPath}" });
  // The session cookie goes with the session, as after signing out elsewhere.
  await page.route("**/secure/status", async (route) => {
    await page.context().clearCookies({ name: "tw_session" });
    await route.fulfill({ status: 401, contentType: "application/json", body });
  });
  await page.goto(`${baseURL}/secure/myshazam?ref=e2e`);
  await page.waitForURL(`${baseURL}/login?redirect=%2Fsecure%2Fmyshazam%3Fref%3De2e`);
  await page.getByLabel("Email address").waitFor();
  // The browser logs the 401 itself; nothing else may go wrong.
  expect(errors.filter((error) => !error.includes("401"))).toEqual([]);
});

test("/error/unauthorized: the apology, the ad-block hint, and a Sign in button that opens sign-in", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone, userAgent: personUserAgent });
  const response = await page.goto(`${baseURL}/error/unauthorized`);
  expect(response?.status()).toBe(401);
  const section = page.locator(".error-page");
  await section.getByRole("heading", { name: "Something went wrong :(" }).waitFor();
  await section.getByText("If you have ad block on, it may be causing a problem").waitFor();
  await screenshot(page, "error-unauthorized-phone");
  await section.getByRole("link", { name: "Sign in" }).click();
  await page.waitForURL(`${baseURL}/login`);
  await page.getByLabel("Email address").waitFor();
  expect(errors.filter((error) => !error.includes("401"))).toEqual([]);
});
