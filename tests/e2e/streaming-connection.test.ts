import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { connectPopup } from "#rules/streaming.ts";
import { launchBrowser, personUserAgent, viewports } from "./browser";
import { screenshot } from "./screenshot";
import { trackPagePath, worldChartTopTrack } from "./site-data";

// The streaming-service connection as a person makes it (decision 021): from a track page, the popup
// (500×600) on the consent page, Allow, the confirm overlay, the popup closing by itself, another
// tab following without a reload, and disconnecting; Deny; and a callback whose state was tampered.

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function aTrackPath(): Promise<string> {
  const track = await worldChartTopTrack(baseURL);
  return trackPagePath(track);
}

/** A browser context that records every error statistic its pages (popups too) send. */
async function contextWithStatistics(options: BrowserContextOptions = { viewport: viewports.desktop }) {
  const context = await browser.newContext({ ...options, userAgent: personUserAgent });
  const errorStatistics: URL[] = [];
  const problems: string[] = [];
  context.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/services/metrics/web.error")) errorStatistics.push(url);
  });
  context.on("page", (page) => {
    page.on("pageerror", (error) => problems.push(error.message));
  });
  return { context, errorStatistics, problems };
}

async function openTrack(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseURL}${path}`);
  await page.getByRole("button", { name: "Connect to Apple Music" }).waitFor();
  return page;
}

async function popupFrom(page: Page, click: () => Promise<void>): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent("popup"), click()]);
  await popup.getByRole("button", { name: "Allow" }).waitFor();
  return popup;
}

test("connect from a track page: popup, Allow, confirm overlay, the popup closes, another tab follows, disconnect", async () => {
  const { context, errorStatistics, problems } = await contextWithStatistics();
  const path = await aTrackPath();
  const page = await openTrack(context, path);
  const otherTab = await openTrack(context, path);

  const popup = await popupFrom(page, () =>
    page.getByRole("button", { name: "Connect to Apple Music" }).click(),
  );
  expect(await popup.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([
    connectPopup.width,
    connectPopup.height,
  ]);
  expect(popup.url()).toContain("code_challenge_method=S256");
  expect(popup.url()).toContain("scope=music");
  expect(new URL(popup.url()).searchParams.get("state")).toMatch(/^track_[0-9a-f-]{36}$/);
  await screenshot(popup, "connect-consent-popup");

  const closed = popup.waitForEvent("close");
  await popup.getByRole("button", { name: "Allow" }).click();
  const overlay = page.getByRole("dialog", { name: "You're connected" });
  await overlay.waitFor();
  await screenshot(page, "connect-confirm-desktop");
  const closedAt = Date.now();
  await closed;
  // Spec 002 §9 "popup auto-close 2 s after callback": not at once, and not long after.
  expect(Date.now() - closedAt).toBeLessThan(5000);

  // The other tab learns it through the storage event, without a reload.
  await otherTab.getByText("Connected to Apple Music").waitFor();
  await overlay.getByRole("button", { name: "Done" }).click();
  await page.getByText("Connected to Apple Music").waitFor();
  expect(await page.evaluate(() => Boolean(localStorage.getItem("streaming.connection")))).toBe(true);
  expect(await page.evaluate(() => localStorage.getItem("_checkstate"))).toBeNull();

  // The offer page shows the same connection (spec 001 §4, offer context).
  await otherTab.goto(`${baseURL}/campaign/first-month`);
  await otherTab.getByText("Connected to Apple Music").waitFor();

  await page.getByRole("button", { name: "Disconnect" }).click();
  await page.getByRole("button", { name: "Connect to Apple Music" }).waitFor();
  await otherTab.getByRole("button", { name: "Connect to Apple Music" }).waitFor();
  expect(errorStatistics).toEqual([]);
  expect(problems).toEqual([]);
  await context.close();
});

test("Deny: the popup closes, the page stays unconnected, and no error statistic is sent", async () => {
  const { context, errorStatistics } = await contextWithStatistics();
  const page = await openTrack(context, await aTrackPath());
  const popup = await popupFrom(page, () =>
    page.getByRole("button", { name: "Connect to Apple Music" }).click(),
  );
  await Promise.all([popup.waitForEvent("close"), popup.getByRole("button", { name: "Deny" }).click()]);
  expect(await page.getByRole("dialog").count()).toBe(0);
  await page.getByRole("button", { name: "Connect to Apple Music" }).waitFor();
  expect(await page.evaluate(() => localStorage.getItem("streaming.connection"))).toBeNull();
  expect(errorStatistics).toEqual([]);
  await context.close();
});

test("a tampered state: invalid_state, the error overlay with Try Again / Cancel, and an err-connect statistic", async () => {
  const { context, errorStatistics } = await contextWithStatistics({ viewport: viewports.phone });
  const page = await openTrack(context, await aTrackPath());
  const popup = await popupFrom(page, () =>
    page.getByRole("button", { name: "Connect to Apple Music" }).click(),
  );
  // The callback will carry a state other than the one this attempt keeps: someone else's.
  await page.evaluate(() => {
    const record = JSON.parse(localStorage.getItem("_checkstate") ?? "{}");
    record.data.state = "track_someone-else";
    localStorage.setItem("_checkstate", JSON.stringify(record));
  });
  await Promise.all([popup.waitForEvent("close"), popup.getByRole("button", { name: "Allow" }).click()]);
  const overlay = page.getByRole("dialog", { name: "Something went wrong" });
  await overlay.getByText("We couldn't connect you to Apple Music").waitFor();
  await overlay.getByRole("button", { name: "Try Again" }).waitFor();
  await screenshot(page, "connect-error-phone");
  await expect.poll(() => errorStatistics.length).toBeGreaterThan(0);
  const statistic = errorStatistics.find((url) => url.search.includes("err-connect"));
  expect(statistic?.searchParams.get("errorcode")).toBe("invalid_state");
  await overlay.getByRole("button", { name: "Cancel" }).click();
  await overlay.waitFor({ state: "hidden" });
  expect(await page.evaluate(() => localStorage.getItem("streaming.connection"))).toBeNull();
  await context.close();
});

/** The mean relative luminance (0–1) of the screen in `box`, read from a screenshot's pixels. */
async function luminanceOf(page: Page, box: { x: number; y: number; width: number; height: number }) {
  // Animations run to their end first: the overlay fades in.
  const png = (await page.screenshot({ clip: box, animations: "disabled" })).toString("base64");
  return page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const drawing = canvas.getContext("2d");
    if (!drawing) throw new Error("no 2d canvas");
    drawing.drawImage(image, 0, 0);
    const { data: pixels } = drawing.getImageData(0, 0, image.width, image.height);
    const linear = (value: number) => {
      const c = value / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    let sum = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      const [r = 0, g = 0, b = 0] = pixels.subarray(i, i + 3);
      sum += 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    }
    return sum / (pixels.length / 4);
  }, png);
}

test.each([
  ["phone", "light"],
  ["phone", "dark"],
  ["desktop", "light"],
  ["desktop", "dark"],
] as const)(
  "the confirm overlay is a modal card over a visible mask (%s, %s scheme)",
  async (size, colorScheme) => {
    const viewport = viewports[size];
    const { context } = await contextWithStatistics({ viewport, colorScheme });
    const page = await openTrack(context, await aTrackPath());
    // The screen's left edge, top to bottom: the page's own margin, outside any card.
    const edge = { x: 0, y: 0, width: 8, height: viewport.height };
    const before = await luminanceOf(page, edge);
    const popup = await popupFrom(page, () =>
      page.getByRole("button", { name: "Connect to Apple Music" }).click(),
    );
    await popup.getByRole("button", { name: "Allow" }).click();
    const overlay = page.getByRole("dialog", { name: "You're connected" });
    await overlay.waitFor();
    expect(await overlay.evaluate((dialog) => dialog.matches(":modal"))).toBe(true);
    const after = await luminanceOf(page, edge);
    await screenshot(page, `connect-confirm-mask-${size}-${colorScheme}`);
    // Spec 002 §2 "masked": around the card the page is still there, dimmed to half or less.
    expect(after).toBeGreaterThan(0);
    expect(after / before).toBeLessThanOrEqual(0.5);
    const card = await overlay.locator(".overlay__content").boundingBox();
    expect(card?.width).toBeLessThan(viewport.width);
    await context.close();
  },
);
