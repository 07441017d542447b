import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";

/** What the tests leave for a person to look at: git-ignored, inside the checkout (decision 031). */
export const testResultsFolder = path.resolve(import.meta.dirname, "../../test-results");

/** Where screenshots go when asked for. */
export const screenshotFolder = path.join(testResultsFolder, "screenshots");

/**
 * The one way a browser test takes a picture of what it checked, for a person to look at: only when
 * `TEST_SCREENSHOTS=1` is set, into `test-results/screenshots/NAME.png`. Otherwise it does nothing,
 * so an ordinary run writes no files; a test never relies on a screenshot to wait for the page.
 */
export async function screenshot(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (process.env.TEST_SCREENSHOTS !== "1") return;
  mkdirSync(screenshotFolder, { recursive: true });
  const file = path.join(screenshotFolder, `${name}.png`);
  if ("goto" in target) await target.screenshot({ path: file, fullPage: options.fullPage ?? false });
  else await target.screenshot({ path: file });
}
