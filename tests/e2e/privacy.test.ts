import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { mailedLink, signInByEmail, uniqueAddress } from "./accounts";
import { launchBrowser, openPage, viewports } from "./browser";
import { screenshot } from "./screenshot";

// The privacy flows as a person goes through them on the running site: sign in, ask for the data
// download, open the mailed link, save the file and read it, delete the account, sign in again to
// an empty account; and every privacy page at phone and desktop width.

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

test("download the data, open the mailed link, read the file, delete the account, start again empty", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.desktop, acceptDownloads: true });
  const email = uniqueAddress("rosa");
  await signInByEmail(page, "/privacy/download", email);

  // The request: the box is required, then the link is mailed.
  await page.getByRole("button", { name: "Request my data" }).click();
  expect(
    await page
      .getByLabel("Yes, email me a link to all my data")
      .evaluate((box) => (box as HTMLInputElement).validity.valid),
  ).toBe(false);
  await page.getByLabel("Yes, email me a link to all my data").check();
  await page.getByRole("button", { name: "Request my data" }).click();
  const sent = page.getByRole("status").filter({ hasText: `We emailed a link to ${email}` });
  await sent.waitFor();
  expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("status");
  await screenshot(page, "privacy-download-sent-desktop", { fullPage: true });

  // The mailed link: the file's page, then the file itself.
  const link = await mailedLink(page, email, "Your Tunewave data is ready");
  expect(new URL(link).pathname).toMatch(/^\/privacy\/download\/[\w-]{22}$/);
  await page.goto(link);
  await page.getByRole("heading", { name: "Your data is ready" }).waitFor();
  await screenshot(page, "privacy-download-file-desktop", { fullPage: true });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Download the file \(ZIP/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^tunewave-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const saved = await download.path();
  const zip = unzipSync(new Uint8Array(readFileSync(saved)));
  const data = JSON.parse(strFromU8(zip["data.json"] ?? new Uint8Array()));
  expect(data.account.email).toBe(email);
  expect(data.sessions).toHaveLength(1);
  expect(strFromU8(zip["README.txt"] ?? new Uint8Array())).toContain(email);

  // Asking again while the link works: already in process.
  await page.goto(`${baseURL}/privacy/download`);
  await page.getByLabel("Yes, email me a link to all my data").check();
  await page.getByRole("button", { name: "Request my data" }).click();
  await page.getByRole("alert").filter({ hasText: "Your request is already in process" }).waitFor();

  // What we hold, before and after.
  await page.goto(`${baseURL}/privacy/data-categories`);
  await page.getByRole("heading", { name: "What we hold about you now" }).waitFor();
  expect(
    await page.locator(".privacy-yours__row", { hasText: "Data downloads" }).locator("dd").textContent(),
  ).toBe("1");

  // Deletion: a wrong address first, then the right one.
  await page.goto(`${baseURL}/privacy/delete`);
  await page.waitForFunction(() => localStorage.getItem("loggedin") !== null);
  const confirm = page.getByLabel(`To confirm, type your email address (${email})`);
  await confirm.fill("someone@example.com");
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await page
    .getByRole("alert")
    .filter({ hasText: "That is not the email address of this account" })
    .waitFor();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("delete-email");
  await confirm.fill(email);
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await page.getByRole("heading", { name: "Your account is deleted" }).waitFor();
  await page.getByRole("status").filter({ hasText: "signed out on every device" }).waitFor();
  await page.getByRole("link", { name: "Sign in", exact: true }).first().waitFor();
  expect(await page.evaluate(() => localStorage.getItem("loggedin"))).toBeNull();
  expect(await page.evaluate(async () => (await fetch("/secure/status")).status)).toBe(401);
  await screenshot(page, "privacy-delete-done-desktop", { fullPage: true });

  // The old link now belongs to nobody; the same address signs in to a new, empty account.
  await signInByEmail(page, "/privacy/data-categories", email);
  const row = (name: string) => page.locator(".privacy-yours__row", { hasText: name }).locator("dd");
  expect(await row("Songs in your library").textContent()).toBe("0");
  expect(await row("Data downloads").textContent()).toBe("0");
  await page.goto(link);
  await page.getByRole("heading", { name: "This download link isn't valid" }).waitFor();
  // The failed loads are the ones asked for: the 409 of the second request, the 400 of the wrong
  // address, the 401 of the status call and the 404 of the old link.
  expect(errors.filter((error) => !/status of (400|401|404|409)/.test(error))).toEqual([]);
});

test("every privacy page at phone and desktop width, signed out and signed in", async () => {
  const pages = [
    ["landing", "/privacy"],
    ["download", "/privacy/download"],
    ["delete", "/privacy/delete"],
    ["data-categories", "/privacy/data-categories"],
    ["transfer-notice", "/privacy/transfer-notice"],
  ] as const;
  for (const [width, viewport] of [
    ["phone", viewports.phone],
    ["desktop", viewports.desktop],
  ] as const) {
    const { page, errors } = await openPage(browser, { viewport });
    for (const [name, path] of pages) {
      await page.goto(`${baseURL}${path}`);
      await page.getByRole("navigation", { name: "Privacy pages" }).getByRole("link").first().waitFor();
      expect(await page.locator("h1").count(), path).toBe(1);
      const current = page
        .getByRole("navigation", { name: "Privacy pages" })
        .locator("[aria-current='page']");
      expect(await current.count(), path).toBe(1);
      const noOverflow = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(noOverflow, path).toBe(true);
      await screenshot(page, `privacy-${name}-${width}`, { fullPage: true });
    }
    await signInByEmail(page, "/privacy/download", uniqueAddress(`tao-${width}`));
    await screenshot(page, `privacy-download-signed-in-${width}`, { fullPage: true });
    await page.goto(`${baseURL}/privacy/delete`);
    // The form names the signed-in address, which can be long: it must wrap, not widen the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, `privacy-delete-signed-in-${width}`, { fullPage: true });
    await page.goto(`${baseURL}/privacy/data-categories`);
    await page.getByRole("heading", { name: "What we hold about you now" }).waitFor();
    await screenshot(page, `privacy-data-categories-signed-in-${width}`, { fullPage: true });
    await page.goto(`${baseURL}/de/privacy/download/${"A".repeat(22)}?token=${"B".repeat(43)}`);
    await page.getByRole("alert").waitFor();
    await screenshot(page, `privacy-download-unknown-${width}`, { fullPage: true });
    expect(errors.filter((error) => !/status of 404/.test(error))).toEqual([]);
  }
});
