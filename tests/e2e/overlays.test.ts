import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import enApp from "#locales/en/app.json";
import { axeViolations } from "./axe";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { screenshot } from "./screenshot";
import { trackPagePath, worldChartTopTrack } from "./site-data";

// The overlay system (decision 025): the overlay addresses, stacking, Escape and outside click, the
// modal takeover's refusal, focus, and what a screen reader is told with an overlay open.

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(path: string, viewport: { width: number; height: number } = viewports.desktop) {
  const opened = await openPage(browser, { viewport, userAgent: personUserAgent, hasTouch: true });
  await opened.page.goto(`${baseURL}${path}`);
  await opened.page.waitForFunction(() => document.documentElement.dataset.ready !== undefined);
  return opened;
}

/** A real four-finger touch, through the browser's input pipeline. */
async function fourFingerTouch(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const touchPoints = [0, 1, 2, 3].map((id) => ({ x: 100 + id * 40, y: 300, id }));
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

async function aTrackPath(): Promise<string> {
  const track = await worldChartTopTrack(baseURL);
  return trackPagePath(track);
}

describe("/ux/dialog", () => {
  test("visited directly it opens over the home page; its button closes it and leaves the home page", async () => {
    const { page, errors } = await open("/ux/dialog?title=Saved&body=Your%20list%20is%20saved.&button=Great");
    const dialog = page.getByRole("dialog", { name: "Saved" });
    await dialog.waitFor();
    expect(await dialog.getByText("Your list is saved.").isVisible()).toBe(true);
    // The home page is behind it, inert.
    expect(await page.locator("main section[aria-labelledby]").count()).toBeGreaterThan(0);
    expect(await page.locator("main").evaluate((main) => main.matches(":modal *"))).toBe(false);
    await screenshot(page, "overlay-dialog-desktop");
    await dialog.getByRole("button", { name: "Great" }).click();
    await page.waitForURL(`${baseURL}/`);
    await dialog.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("the default is one OK button, in the page's language", async () => {
    const { page } = await open("/de/ux/dialog", viewports.phone);
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.getByRole("button").allTextContents()).toEqual(["OK"]);
    expect(await dialog.getByRole("heading").textContent()).toBe("Hinweis");
    await screenshot(page, "overlay-dialog-phone");
    await page.context().close();
  });

  test("Escape and a click outside close it", async () => {
    for (const close of ["Escape", "outside"] as const) {
      const { page, errors } = await open("/ux/dialog?title=Hello");
      await page.getByRole("dialog", { name: "Hello" }).waitFor();
      if (close === "Escape") await page.keyboard.press("Escape");
      else await page.mouse.click(10, 10);
      await page.waitForURL(`${baseURL}/`);
      await page.getByRole("dialog").waitFor({ state: "detached" });
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  test("a bad address is a clear 400, not a dialog", async () => {
    const response = await fetch(`${baseURL}/ux/dialog?title=${"x".repeat(200)}`);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("This link is not valid");
    expect(html).not.toContain("<dialog");
  });

  test("keyboard: focus starts in the dialog and Tab stays inside; axe finds nothing with it open", async () => {
    const { page } = await open("/ux/dialog?title=Choose&button=Yes&button=No");
    const dialog = page.getByRole("dialog", { name: "Choose" });
    await dialog.waitFor();
    for (let i = 0; i < 4; i++) {
      expect(await page.evaluate(() => document.activeElement?.closest("dialog") !== null)).toBe(true);
      await page.keyboard.press("Tab");
    }
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe("the debug overlay", () => {
  test("a four-finger touch opens it from the bottom over any page; Escape closes it and focus returns", async () => {
    const { page, errors } = await open("/charts", viewports.phone);
    const link = page.locator("main a[href]").first();
    await link.focus();
    const focused = await link.getAttribute("href");
    await fourFingerTouch(page);
    const overlay = page.getByRole("dialog", { name: enApp.debug.title });
    await overlay.waitFor();
    expect(await overlay.evaluate((element) => element.className)).toContain("overlay--bottomup");
    const text = await overlay.textContent();
    for (const label of [
      enApp.debug.build,
      enApp.debug.flags,
      enApp.debug.language,
      enApp.debug.country,
      "webId",
    ])
      expect(text).toContain(label);
    expect(text).toContain("en");
    await screenshot(page, "overlay-debugtap-phone");
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await overlay.waitFor({ state: "detached" });
    expect(new URL(page.url()).pathname).toBe("/charts");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe(focused);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test("/ux/debugtap opens it over the home page", async () => {
    const { page } = await open("/ux/debugtap");
    await page.getByRole("dialog", { name: enApp.debug.title }).waitFor();
    await page.getByRole("button", { name: enApp.debug.close }).click();
    await page.waitForURL(`${baseURL}/`);
    await page.context().close();
  });

  test("over an open dialog it is the second layer; Escape closes the top one only", async () => {
    const { page, errors } = await open("/ux/dialog?title=Below");
    const below = page.getByRole("dialog", { name: "Below" });
    await below.waitFor();
    expect(await below.getAttribute("data-layer")).toBe("1");
    await fourFingerTouch(page);
    const top = page.getByRole("dialog", { name: enApp.debug.title });
    await top.waitFor();
    expect(await top.getAttribute("data-layer")).toBe("2");
    await page.keyboard.press("Escape");
    await top.waitFor({ state: "detached" });
    expect(await below.isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe("/ux/dialog");
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe("a modal takeover", () => {
  test("the connect confirm stays open on Escape and a click outside, and refuses another overlay (ABORTED)", async () => {
    const { page, errors } = await open(await aTrackPath(), viewports.desktop);
    await page.getByRole("button", { name: "Connect to Apple Music" }).waitFor();
    await page.evaluate(() =>
      window.postMessage(
        { type: "tw-connect", result: { outcome: "failed", error: "server_error" } },
        location.origin,
      ),
    );
    const confirm = page.getByRole("dialog", { name: "Something went wrong" });
    await confirm.waitFor();
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await page.mouse.click(5, 5);
    expect(await confirm.isVisible()).toBe(true);
    // The refusal is synchronous with the attempt: once its lazy code has loaded, the debug overlay
    // mounts its dialog, is refused and unmounts it. A mutation observer records that removal.
    await page.evaluate(() => {
      const seen = window as unknown as { debugTapRemoved?: boolean };
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.removedNodes)
            if (node instanceof Element && (node.matches(".debug-tap") || node.querySelector(".debug-tap")))
              seen.debugTapRemoved = true;
      }).observe(document.documentElement, { childList: true, subtree: true });
    });
    await fourFingerTouch(page);
    await page.waitForFunction(
      () => (window as unknown as { debugTapRemoved?: boolean }).debugTapRemoved === true,
    );
    expect(await page.getByRole("dialog").count()).toBe(1);
    await screenshot(page, "overlay-connect-confirm-desktop");
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
