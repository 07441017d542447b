import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
  type Request,
} from "playwright-core";
import { findChromium } from "#scripts/chromium.mjs";

const launchArgs = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"];

// Debian's Chromium, never a downloaded build. Missing Chromium fails loudly with the fix.
function chromiumPath(): string {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error("Chromium is missing: run `apt-get install -y chromium` (as root) or set CHROME_PATH.");
  }
  return executablePath;
}

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: [...launchArgs, ...extraArgs] });
}

/**
 * Chromium with a profile of its own in `userDataDir`: a normal window, not the off-the-record
 * contexts `launchBrowser` gives (Chromium will not install a web app from an incognito window).
 */
export async function launchWithProfile(
  userDataDir: string,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    ...options,
    executablePath: chromiumPath(),
    args: launchArgs,
  });
}

/**
 * Opens a page that records console errors and uncaught exceptions in `errors`. The site's service
 * worker (docs/decisions/057-heard-offline.md) is blocked unless the options allow it
 * (`serviceWorkers: "allow"`, tests/e2e/heard-offline.test.ts): what it answers from its cache no
 * request interception sees, and a page's test should not depend on what a load before it installed.
 */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; errors: string[]; failures: string[]; unanswered: () => string[] }> {
  const context = await browser.newContext({ serviceWorkers: "block", ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  // The requests that failed or were refused, for a failure's message.
  const failures: string[] = [];
  page.on("requestfailed", (request) =>
    failures.push(`${request.url()} failed: ${request.failure()?.errorText}`),
  );
  page.on("response", (response) => {
    if (response.status() >= 400) failures.push(`${response.url()} answered ${response.status()}`);
  });
  // The requests sent and not yet answered, for a failure's message too.
  const open = new Set<Request>();
  page.on("request", (request) => open.add(request));
  page.on("requestfinished", (request) => open.delete(request));
  page.on("requestfailed", (request) => open.delete(request));
  return { page, errors, failures, unanswered: () => [...open].map((request) => request.url()) };
}

/**
 * A person's browser. Headless Chromium's own user agent says "HeadlessChrome", which isbot rightly
 * calls a bot: no visitor id, no beacons, no survey. A test of what a person sees sends this one.
 */
export const personUserAgent =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

/** Phones' browsers, for the tests of what a phone gets (Chromium's device emulation does the rest). */
export const androidPhoneUserAgent =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36";
export const iPhoneUserAgent =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

export const viewports = {
  phone: { width: 390, height: 844 },
  tablet: { width: 700, height: 1000 },
  desktop: { width: 1280, height: 900 },
} as const;
