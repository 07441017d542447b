import type { Page } from "playwright-core";
import { inject } from "vitest";

// Signing in as a person does, for the browser tests of signed-in pages: the header's sign-in,
// the e-mail form, the link from the local outbox.

const baseURL = inject("baseURL");
let run = 0;

/** An address nobody has used yet in this test run. */
export function uniqueAddress(name: string) {
  run += 1;
  return `${name}.${Date.now()}.${run}@example.com`;
}

/** From `startPath`, asks for a link with the header's sign-in and the form; returns the mailed link. */
export async function askForLink(page: Page, startPath: string, email: string): Promise<string> {
  await page.goto(`${baseURL}${startPath}`);
  await page.locator("header").getByRole("link", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/login\?redirect=/);
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
  return mailedLink(page, email, "Your Tunewave sign-in link");
}

/** The first link of the newest mail to `email` with `subject`, from the local outbox page. */
export async function mailedLink(page: Page, email: string, subject: string): Promise<string> {
  await page.goto(`${baseURL}/dev/outbox`);
  const mail = page.locator(".outbox > li", { hasText: email }).filter({ hasText: subject }).first();
  const href = await mail.locator("a").first().getAttribute("href");
  if (!href) throw new Error(`no "${subject}" mail to ${email}`);
  return href;
}

/** Signs in from `startPath` and follows the link back there. */
export async function signInByEmail(page: Page, startPath: string, email: string): Promise<void> {
  await page.goto(await askForLink(page, startPath, email));
  await page.waitForURL(`${baseURL}${startPath}`);
  await page.locator("summary[aria-label='Your account']").waitFor();
}
