import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { askForLink, uniqueAddress } from "./accounts";
import { launchBrowser, openPage, viewports } from "./browser";
import { executeLocalD1 } from "./local-d1";
import { screenshot } from "./screenshot";

// Signing in as a person does on the running site: the e-mail form, the outbox, the link, the
// page they came from, a reload, sign-out; and the same link again, late, or in another browser.

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

test("sign in with an e-mail link, land back on the page, stay signed in, sign out", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.desktop });
  const email = uniqueAddress("ana");
  const link = await askForLink(page, "/charts", email);
  await page.goto(link);
  await page.waitForURL(`${baseURL}/charts`);
  const menu = page.locator("summary[aria-label='Your account']");
  await menu.waitFor();
  await page.reload();
  await menu.waitFor();
  await menu.click();
  await page.getByText(`Signed in as ${email}`).waitFor();
  await screenshot(page, "sign-in-menu-desktop");
  // The header says "Sign in" as soon as the button is pressed; the server has signed out once the
  // form's POST is answered (a busy machine showed the first before the second). With the page's
  // script the form posts to /logout.data (Remix's single fetch), without it to /logout.
  const signedOut = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" && /^\/logout(\.data)?$/.test(new URL(response.url()).pathname),
  );
  await page.getByRole("button", { name: "Sign out" }).click();
  await signedOut;
  await page.getByRole("link", { name: "Sign in", exact: true }).waitFor();
  expect(page.url()).toBe(`${baseURL}/charts`);
  const status = await page.evaluate(async () => (await fetch("/secure/status")).status);
  expect(status).toBe(401);
  expect(await page.evaluate(() => localStorage.getItem("loggedin"))).toBeNull();
  // The one failed load is the 401 of the status call just made.
  expect(errors.filter((error) => !error.includes("status of 401"))).toEqual([]);
});

test("the same link a second time, in another browser, or too late: each its own screen", async () => {
  const { page } = await openPage(browser, { viewport: viewports.phone });
  const email = uniqueAddress("ben");
  const link = await askForLink(page, "/", email);

  const other = await openPage(browser, { viewport: viewports.phone });
  await other.page.goto(link);
  await other.page.getByRole("heading", { name: "Open the link on the device you asked from" }).waitFor();
  await screenshot(other.page, "sign-in-wrong-device-phone");

  await page.goto(link);
  await page.locator("summary[aria-label='Your account']").waitFor();
  await page.goto(link);
  await page.getByRole("heading", { name: "This link was already used" }).waitFor();
  await screenshot(page, "sign-in-used-phone");

  const cut = new URL(link, baseURL);
  cut.searchParams.delete("customtoken");
  await page.goto(cut.href);
  await page.getByRole("heading", { name: "This link is incomplete" }).waitFor();

  // Too late: the link's 15 minutes are over (moved into the past in the running site's database).
  const lateEmail = uniqueAddress("cleo");
  const { page: fresh } = await openPage(browser, { viewport: viewports.phone });
  const lateLink = await askForLink(fresh, "/", lateEmail);
  await executeLocalD1(
    `UPDATE email_logins SET expires_at = 0 WHERE email = '${lateEmail}'`,
    "expire the link",
  );
  await fresh.goto(lateLink);
  await fresh.getByRole("heading", { name: "This link has expired" }).waitFor();
  await screenshot(fresh, "sign-in-expired-phone");
});

test("the login screens at phone and desktop width", async () => {
  for (const [name, viewport] of [
    ["phone", viewports.phone],
    ["desktop", viewports.desktop],
  ] as const) {
    const { page, errors } = await openPage(browser, { viewport });
    await page.goto(`${baseURL}/login`);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("Please enter a valid email address");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("login-email");
    await screenshot(page, `sign-in-form-${name}`, { fullPage: true });
    for (const path of ["/login/google", "/login/facebook", "/de/login"]) {
      await page.goto(`${baseURL}${path}`);
      await screenshot(page, `sign-in${path.replaceAll("/", "-")}-${name}`, { fullPage: true });
    }
    const noOverflow = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(noOverflow).toBe(true);
    // The one failed load is the form's own 400 for the empty address.
    expect(errors.filter((error) => !error.includes("status of 400"))).toEqual([]);
  }
});
