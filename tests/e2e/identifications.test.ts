import type { Browser } from "playwright-core";
import * as v from "valibot";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { tagCountListSchema } from "#rules/schemas/tagcount.ts";
import { trackSchema } from "#rules/schemas/track.ts";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { catalogueExcerpt, microphoneFlags, pressListen } from "./microphone";
import { screenshot } from "./screenshot";

// Identifications counted live (decision 032): a song identified through the microphone is counted
// once the identifications queue delivers its event, and its track page says so.

const baseURL = inject("baseURL");
let browser: Browser;
let excerpt: Awaited<ReturnType<typeof catalogueExcerpt>>;

beforeAll(async () => {
  // A recording no other browser test identifies: its count moves for this test alone.
  excerpt = await catalogueExcerpt(0.25);
  browser = await launchBrowser(microphoneFlags(excerpt.wavFile));
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The count before, from the list call: the page reads the single call, whose cached answer
 * (a minute, origin/http.ts cachePolicy.counts) this read must not make.
 */
async function countBefore(key: string): Promise<number> {
  const answer = await fetch(`${baseURL}/services/count/v2/web/tracks?id=${key}`);
  const [count] = v.parse(tagCountListSchema, await answer.json());
  if (!count) throw new Error(`no count for ${key}`);
  return count.total;
}

test("a song identified through the microphone: its track page shows one identification more once the queue delivered", async () => {
  const response = await fetch(`${baseURL}/services/track/v1/en/GB/web/${excerpt.key}`);
  const track = v.parse(trackSchema, await response.json());
  const before = await countBefore(track.key);
  const { page, errors } = await openPage(browser, {
    viewport: viewports.desktop,
    userAgent: personUserAgent,
  });
  await page.goto(`${baseURL}/identify`);
  await pressListen(page);
  await page.waitForURL((url) => url.pathname === `/track/${track.key}/${track.alias}`, {
    timeout: 30_000,
  });
  // One queue batch (5 s) plus the count's cache time (60 s) at most: reloaded until it shows,
  // and never more than one identification more.
  const count = page.locator(".track-hero__count");
  await expect
    .poll(
      async () => {
        await page.reload();
        return Number(await count.getAttribute("data-count"));
      },
      { timeout: 120_000, interval: 2_000 },
    )
    .toBe(before + 1);
  await expect.poll(() => count.textContent()).toContain((before + 1).toLocaleString("en"));
  await screenshot(page, "identifications-counted");
  expect(errors).toEqual([]);
}, 180_000);
