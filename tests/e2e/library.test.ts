import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import * as v from "valibot";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { libraryCsvHeader } from "#rules/library.ts";
import { trackSchema } from "#rules/schemas/track.ts";
import { signInByEmail, uniqueAddress } from "./accounts";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { catalogueExcerpt, microphoneFlags, pressListen } from "./microphone";
import { screenshot } from "./screenshot";

// My Library as a person uses it: sign in, identify a song through the (fake) microphone, find it
// in the library with the count, export it as CSV and JSON, remove it and undo, remove it again.

const baseURL = inject("baseURL");
let browser: Browser;
let excerpt: Awaited<ReturnType<typeof catalogueExcerpt>>;

beforeAll(async () => {
  excerpt = await catalogueExcerpt();
  browser = await launchBrowser(microphoneFlags(excerpt.wavFile));
});

afterAll(async () => {
  await browser?.close();
});

/** Opens the export menu and downloads one of its files; its text. */
async function download(page: Page, name: string): Promise<{ fileName: string; text: string }> {
  const menu = page.locator("details.library-export");
  if ((await menu.getAttribute("open")) === null) await menu.locator("summary").click();
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()]);
  const saved = await file.path();
  return { fileName: file.suggestedFilename(), text: readFileSync(saved, "utf8") };
}

test("identify a song signed in, find it in My Library, export it, remove it", async () => {
  const track = v.parse(
    trackSchema,
    await (await fetch(`${baseURL}/services/track/v1/en/GB/web/${excerpt.key}`)).json(),
  );
  const { page, errors } = await openPage(browser, {
    viewport: viewports.desktop,
    userAgent: personUserAgent,
  });
  await signInByEmail(page, "/myshazam", uniqueAddress("lib"));
  await page.getByRole("heading", { name: "No songs yet" }).waitFor();
  await expect.poll(() => page.locator(".library__count").textContent()).toBe("0 songs");

  await page.getByRole("link", { name: "Identify a song" }).last().click();
  await page.waitForURL(`${baseURL}/identify`);
  await pressListen(page);
  await page.waitForURL((url) => url.pathname === `/track/${track.key}/${track.alias}`, { timeout: 30_000 });

  await page.locator("summary[aria-label='Your account']").click();
  await page.getByRole("link", { name: "My Library" }).click();
  await page.waitForURL(`${baseURL}/myshazam`);
  await expect.poll(() => page.locator(".library__count").textContent()).toBe("1 song");
  const row = page.locator(".library-row");
  await expect.poll(() => row.count()).toBe(1);
  expect(await row.locator(".track-row__title").textContent()).toBe(track.title);
  expect(await row.locator(".track-row__artist").textContent()).toBe(track.subtitle);
  expect(await row.locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("loggedin"))).not.toBeNull();
  await expect
    .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("shazamcount") ?? "{}").data))
    .toBe(1);
  await screenshot(page, "library-desktop", { fullPage: true });

  const csv = await download(page, "Spreadsheet (CSV)");
  expect(csv.fileName).toMatch(/^tunewave-library-\d{4}-\d\d-\d\d\.csv$/);
  const [header, first, end] = csv.text.split("\r\n");
  expect(header).toBe(libraryCsvHeader.join(","));
  expect(first?.split(",").slice(0, 1)).toEqual(["1"]);
  expect(first).toContain(`,${baseURL}/track/${track.key}/${track.alias},${track.key}`);
  expect(end).toBe("");
  const json = await download(page, "Data (JSON)");
  const body = JSON.parse(json.text) as { count: number; tags: { title: string; trackKey: string }[] };
  expect(body.count).toBe(1);
  expect(body.tags[0]).toMatchObject({ title: track.title, trackKey: track.key });

  await page.getByRole("button", { name: `Remove “${track.title}” from your library` }).click();
  await page.getByRole("status").getByText(`“${track.title}” was removed from your library.`).waitFor();
  await page.getByRole("heading", { name: "No songs yet" }).waitFor();
  await page.getByRole("button", { name: "Undo" }).click();
  await page.getByRole("status").getByText(`“${track.title}” is back in your library.`).waitFor();
  await expect.poll(() => page.locator(".library__count").textContent()).toBe("1 song");
  await page.getByRole("button", { name: `Remove “${track.title}” from your library` }).click();
  await page.getByRole("heading", { name: "No songs yet" }).waitFor();
  expect(errors).toEqual([]);
  await page.context().close();
});

test("the page at phone width, signed out and without script", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.phone, javaScriptEnabled: false });
  await page.goto(`${baseURL}/ja/myshazam`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  const signIn = page.locator(".library-empty a.button");
  expect(await signIn.getAttribute("href")).toBe("/ja/login?redirect=%2Fja%2Fmyshazam");
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, "library-signed-out-phone", { fullPage: true });
  expect(errors).toEqual([]);
  await page.context().close();
});
