import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { findChromium } from "../../scripts/chromium.mjs";

// Debian's Chromium, never a downloaded build. Missing Chromium fails loudly with the fix.
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error("Chromium is missing: run `apt-get install -y chromium` (as root) or set CHROME_PATH.");
  }
  return chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", ...extraArgs],
  });
}

/** Opens a page that records console errors and uncaught exceptions in `errors`. */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors };
}

export const viewports = {
  phone: { width: 390, height: 844 },
  tablet: { width: 700, height: 1000 },
  desktop: { width: 1280, height: 900 },
} as const;
