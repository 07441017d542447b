import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { offerLimits } from "#rules/offers.ts";
import { uniqueAddress } from "./accounts";
import { launchBrowser, openPage, viewports } from "./browser";
import { executeLocalD1 } from "./local-d1";
import { screenshot } from "./screenshot";

// Offers as a person meets them in Chromium: the page's states, redeeming with the device's
// authenticator (a CDP virtual authenticator that verifies the person, and one that does not),
// a browser without WebAuthn, Copy → "Copied", and the same code again after a reload.
// WebAuthn needs a host name (an IP address cannot be a relying party ID): the site is reached
// as localhost, the same server.

const site = inject("baseURL").replace("127.0.0.1", "localhost");
let browser: Browser;

// A person's agents (headless Chromium's own says "HeadlessChrome", a bot, which sends no beacons).
const agents = {
  desktop:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  ipad: "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  android:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
} as const;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(options: BrowserContextOptions = {}) {
  const opened = await openPage(browser, {
    viewport: viewports.desktop,
    userAgent: agents.desktop,
    ...options,
  });
  await opened.page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: site });
  return opened;
}

/** Signs in by e-mail link on the localhost site, and comes back to `back`. */
async function signIn(page: Page, back: string, email: string) {
  await page.goto(`${site}/login?redirect=${encodeURIComponent(back)}`);
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
  await page.goto(`${site}/dev/outbox`);
  const href = await page
    .locator(".outbox > li", { hasText: email })
    .first()
    .locator("a")
    .first()
    .getAttribute("href");
  if (!href) throw new Error(`no link for ${email}`);
  await page.goto(href);
  await page.waitForURL(`${site}${back}`);
}

/**
 * Makes the account as old as the offer-farming limit asks (a day, decision 022) in the local
 * database the site runs on, as if it had been made yesterday, and reloads the page.
 */
async function ageAccount(page: Page, email: string) {
  const made = Date.now() - offerLimits.minAccountAgeMs - 60_000;
  await executeLocalD1(
    `UPDATE users SET created_at = ${made} WHERE email = '${email.replaceAll("'", "''")}'`,
    "age the account",
  );
  await page.reload();
}

/** Chromium's virtual platform authenticator (CDP WebAuthn domain). */
async function addAuthenticator(page: Page, isUserVerified: boolean) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified,
      automaticPresenceSimulation: true,
    },
  });
}

const stateHeading = (page: Page, name: string) => page.getByRole("heading", { level: 2, name, exact: true });

test("signed out, elsewhere, on the wrong device: each state says what to do", async () => {
  const { page, errors } = await open();
  const beacons: URL[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/services/metrics/")) beacons.push(new URL(request.url()));
  });
  const cases = [
    {
      path: "/campaign/first-month?co=GB",
      heading: "Sign in to get your code",
      shot: "signin",
      campaign: "first-month",
    },
    { path: "/campaign/first-month?co=ZA", heading: "Not available here", shot: "country" },
    {
      path: "/campaign/three-free?co=DE",
      heading: "Not available on this device",
      shot: "platform",
      campaign: "three-free",
    },
    {
      path: "/campaign/holiday-2024",
      heading: "This offer has ended",
      shot: "ended",
      campaign: "holiday-2024",
    },
    { path: "/de/campaign/gibt-es-nicht", heading: "Gerade kein Angebot", shot: "none-de" },
  ];
  for (const { path, heading, shot, campaign } of cases) {
    // The heading is the server's; the page view is sent only once the page has hydrated and
    // its runtime started. Leaving before then loses the beacon (the race of a busy machine).
    const viewed =
      campaign &&
      page.waitForResponse((response) => {
        const url = new URL(response.url());
        return (
          url.pathname.includes("/web.pageview.campaign/") && url.searchParams.get("exp_name") === campaign
        );
      });
    await page.goto(`${site}${path}`);
    await page.getByRole("heading", { name: heading, exact: true }).waitFor();
    await viewed;
    await screenshot(page, `offers-${shot}-desktop`, { fullPage: true });
  }
  expect(errors.filter((error) => !/status of 40[14]|status of 410/.test(error))).toEqual([]);
  // Spec 000 §2: the campaign's name is the experiment name of the page's statistics.
  const views = beacons.filter((url) => url.pathname.includes("/web.pageview.campaign/"));
  expect(views.map((url) => url.searchParams.get("exp_name"))).toEqual(
    expect.arrayContaining(["first-month", "three-free", "holiday-2024"]),
  );

  const ipad = await open({ viewport: viewports.tablet, userAgent: agents.ipad });
  await ipad.page.goto(`${site}/fr/campaign/iphone-four?co=US`);
  await stateHeading(ipad.page, "Ouvrez cette offre sur votre téléphone").waitFor();
  await screenshot(ipad.page, "offers-phone-only-fr-tablet", { fullPage: true });
});

test("redeem with Face ID: the code, Copy → Copied, the same code after a reload, and no second offer", async () => {
  const { page, errors } = await open({
    viewport: viewports.phone,
    userAgent: agents.iphone,
    hasTouch: true,
  });
  await addAuthenticator(page, true);
  const email = uniqueAddress("offer");
  await signIn(page, "/campaign/iphone-four?co=US", email);
  // An account made a minute ago: the farming limit's "try again tomorrow".
  await stateHeading(page, "Try again tomorrow").waitFor();
  await screenshot(page, "offers-too-new-phone", { fullPage: true });
  await ageAccount(page, email);
  await stateHeading(page, "Get your code").waitFor();
  await screenshot(page, "offers-available-phone", { fullPage: true });
  await page.getByRole("button", { name: "Get my code" }).click();
  await stateHeading(page, "Your code is ready").waitFor();
  const code = await page.getByRole("textbox", { name: "Your code" }).inputValue();
  expect(code).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);

  await page.getByRole("button", { name: "Copy" }).click();
  await page.getByRole("status").filter({ hasText: "Copied" }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  await screenshot(page, "offers-copied-phone", { fullPage: true });

  // The code is the account's: the server shows it again, without script.
  await page.reload();
  expect(await page.getByRole("textbox", { name: "Your code" }).inputValue()).toBe(code);

  // New users only: this account has had its offer.
  await page.goto(`${site}/campaign/five-months?co=US`);
  await stateHeading(page, "For new users only").waitFor();
  await screenshot(page, "offers-not-new-phone", { fullPage: true });
  expect(errors).toEqual([]);
});

test("an authenticator that does not verify the person: Face ID or fingerprint required, no code", async () => {
  const { page } = await open({ viewport: viewports.desktop });
  await addAuthenticator(page, false);
  const email = uniqueAddress("unverified");
  await signIn(page, "/campaign/first-month?co=GB", email);
  await ageAccount(page, email);
  await page.getByRole("button", { name: "Get my code" }).click();
  await stateHeading(page, "Face ID or fingerprint required").waitFor();
  await screenshot(page, "offers-uv-false-desktop", { fullPage: true });
  await page.reload();
  await stateHeading(page, "Get your code").waitFor();
});

test("without WebAuthn: Face ID or fingerprint required, or on Android the store services", async () => {
  const email = uniqueAddress("nowebauthn");
  const { page } = await open({ viewport: viewports.phone, userAgent: agents.iphone });
  await page.addInitScript(() => {
    // A browser without WebAuthn.
    Reflect.deleteProperty(window, "PublicKeyCredential");
  });
  await signIn(page, "/es/campaign/first-month?co=ES", email);
  await ageAccount(page, email);
  await stateHeading(page, "Se requiere Face ID o huella digital").waitFor();
  await screenshot(page, "offers-no-webauthn-es-phone", { fullPage: true });

  const android = await open({ viewport: viewports.phone, userAgent: agents.android, colorScheme: "dark" });
  await android.page.addInitScript(() => {
    Reflect.deleteProperty(window, "PublicKeyCredential");
  });
  const androidEmail = uniqueAddress("android");
  await signIn(android.page, "/campaign/three-free?co=GB", androidEmail);
  await ageAccount(android.page, androidEmail);
  await stateHeading(android.page, "Install or update your store services").waitFor();
  await screenshot(android.page, "offers-store-services-dark-phone", { fullPage: true });
});
