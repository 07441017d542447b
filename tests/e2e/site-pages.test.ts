import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { screenshot } from "./screenshot";

// The survey and the verification form as a person uses them on the running site, with and
// without script: a refusal with its messages, the stored answer read back through the origin
// with the browser's receipt (never its webId),
// and the second survey answer refused politely; then every remaining page at phone and desktop
// width (screenshots, with TEST_SCREENSHOTS=1, in test-results/screenshots/site-pages-*.png).

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The browser's survey receipt: an HttpOnly cookie, so only the browser's cookie store shows it. */
async function cookieOf(page: Page, name: string): Promise<string> {
  const cookie = (await page.context().cookies(baseURL)).find((c) => c.name === name);
  if (!cookie) throw new Error(`no ${name} cookie`);
  return cookie.value;
}

test("the survey without script: refused with messages, stored, thanked, and answered only once", async () => {
  const { page } = await openPage(browser, {
    viewport: viewports.phone,
    javaScriptEnabled: false,
    userAgent: personUserAgent,
  });
  await page.goto(`${baseURL}/survey`);
  await page.getByRole("button", { name: "Send my answers" }).click();
  await page.getByRole("alert").filter({ hasText: "Some answers need your attention" }).waitFor();
  expect(await page.locator("#survey-satisfaction-error").textContent()).toBe("Please choose one answer.");
  await screenshot(page, "site-pages-survey-invalid-phone", { fullPage: true });

  await page.getByLabel("4: satisfied").check();
  await page.getByLabel("Mostly").check();
  await page.getByLabel("Anything else you would like to tell us?").fill("The lyrics view is <great>");
  await page.getByRole("button", { name: "Send my answers" }).click();
  await page.waitForURL(`${baseURL}/survey/thanks`);
  expect(await page.locator("dl").textContent()).toContain("The lyrics view is <great>");
  await screenshot(page, "site-pages-survey-thanks-phone", { fullPage: true });

  const byBrowserId = await page.request.get(
    `${baseURL}/services/survey/answers/${await cookieOf(page, "webId")}`,
  );
  expect(byBrowserId.status()).not.toBe(200);
  const stored = await page.request.get(
    `${baseURL}/services/survey/answers/${await cookieOf(page, "surveyReceipt")}`,
  );
  expect(stored.status()).toBe(200);
  expect(await stored.json()).toMatchObject({
    satisfaction: 4,
    found: "mostly",
    comment: "The lyrics view is <great>",
  });

  await page.goto(`${baseURL}/survey`);
  await page.getByText("You have already answered this survey from this browser. Thank you!").waitFor();
  expect(await page.locator('input[name="satisfaction"]').count()).toBe(0);
});

test("the survey with script: a second answer from an open form is refused politely", async () => {
  const { page, errors } = await openPage(browser, {
    viewport: viewports.desktop,
    userAgent: personUserAgent,
  });
  await page.goto(`${baseURL}/de/survey`);
  const second = await page.context().newPage();
  await second.goto(`${baseURL}/de/survey`);
  for (const tab of [page, second]) {
    await tab.getByLabel("5: sehr zufrieden").check();
    await tab.getByLabel("Immer").check();
  }
  await page.getByRole("button", { name: "Antworten senden" }).click();
  await page.waitForURL(`${baseURL}/de/survey/thanks`);
  await second.getByRole("button", { name: "Antworten senden" }).click();
  await second.getByText("Du hast diese Umfrage in diesem Browser schon beantwortet. Danke!").waitFor();
  expect(await second.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("status");
  await screenshot(second, "site-pages-survey-again-desktop", { fullPage: true });
  expect(errors.filter((e) => !e.includes("409"))).toEqual([]);
});

test("artist verification: a bad link is refused beside its field, a good request is stored and confirmed", async () => {
  const { page, errors } = await openPage(browser, { viewport: viewports.desktop });
  await page.goto(`${baseURL}/verify`);
  await page.getByLabel("Artist or band name").fill("Ryan Reilly");
  await page.getByLabel("The artist's manager").check();
  await page.getByLabel("Your e-mail address").fill("ryan.manager@example.org");
  await page.getByLabel("Official page").fill("ryanreilly.example");
  await page.getByRole("button", { name: "Send the request" }).click();
  await page.locator("#verify-link-error").filter({ hasText: "https://" }).waitFor();
  expect(await page.getByLabel("Official page").getAttribute("aria-invalid")).toBe("true");
  expect(await page.getByLabel("Artist or band name").inputValue()).toBe("Ryan Reilly");
  await screenshot(page, "site-pages-verify-invalid-desktop", { fullPage: true });

  await page.getByLabel("Official page").fill("https://ryanreilly.example/");
  await page.getByRole("button", { name: "Send the request" }).click();
  await page.waitForURL(/\/verify\/[\w-]{22}$/);
  await page.getByRole("heading", { name: "Request received" }).waitFor();
  await screenshot(page, "site-pages-verify-received-desktop", { fullPage: true });
  const id = new URL(page.url()).pathname.split("/").pop();
  const stored = await page.request.get(`${baseURL}/services/verify/requests/${id}`);
  expect(await stored.json()).toMatchObject({
    artistName: "Ryan Reilly",
    role: "manager",
    email: "ryan.manager@example.org",
    link: "https://ryanreilly.example/",
    status: "received",
  });
  expect(errors.filter((e) => !e.includes("400"))).toEqual([]);
});

const pages = [
  "/terms",
  "/privacy/policy",
  "/apps",
  "/careers",
  "/developers",
  "/verify",
  "/survey",
  "/radio-spins/soundtrack",
  "/charts",
];

test("every remaining page at phone and desktop width, no script errors, no page wider than the screen", async () => {
  for (const [name, viewport] of Object.entries({ phone: viewports.phone, desktop: viewports.desktop })) {
    const { page, errors } = await openPage(browser, { viewport });
    for (const path of pages) {
      const response = await page.goto(`${baseURL}${path}`);
      expect(response?.status(), path).toBe(200);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} at ${name}`).toBeLessThanOrEqual(0);
      const file = path.replaceAll("/", "-").replace(/^-/, "");
      await screenshot(page, `site-pages-${file}-${name}`, { fullPage: true });
    }
    expect(errors, name).toEqual([]);
    await page.context().close();
  }
});
