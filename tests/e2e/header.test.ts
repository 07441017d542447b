import "#tests/all-languages.ts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { resources, type StringTree } from "#locales/index.ts";
import { type LanguageKey, languageKeys, localizedPath } from "#rules/languages.ts";
import { signInByEmail, uniqueAddress } from "./accounts";
import { openAmp } from "./amp-page";
import { axeViolations } from "./axe";
import { launchBrowser, openPage } from "./browser";

// The site header at every width (docs/decisions/053-header-layout.md): nothing in it cut, hidden
// or overlapping, the account in the top-right corner, and no taller than the --header-height the
// sticky offsets use. Widths: the spec's breakpoints (000 §4: phone < 650, tablet 650–800, desktop
// from 800) and the header's own one row (from 1120, the container's full width), either side.

const baseURL = inject("baseURL");
const widths = [320, 360, 390, 600, 649, 650, 660, 720, 799, 800, 900, 1000, 1119, 1120, 1280, 1920];
let browser: Browser;
let longest: LanguageKey[];

/** The header's words, in `common` of each language. */
const labelKeys = ["nav.charts", "nav.concerts", "nav.identify", "account.signIn", "search.placeholder"];

function label(lang: LanguageKey, key: string): string {
  const value = key
    .split(".")
    .reduce<StringTree | string | undefined>(
      (node, part) => (typeof node === "object" ? node[part] : undefined),
      resources[lang]?.common,
    );
  if (typeof value !== "string") throw new Error(`${lang}: no common:${key}`);
  return value;
}

/**
 * The languages whose header words take the most room, measured in the header's own fonts: for
 * each word, the language where it is widest on one line and where its longest word is widest (a
 * phone's tab breaks a label into lines); and the language whose words take most in all.
 */
async function longestLanguages(page: Page): Promise<LanguageKey[]> {
  const labels = languageKeys.map((lang) => labelKeys.map((key) => label(lang, key)));
  const widthsOf = await page.evaluate((labels) => {
    const fontOf = (selector: string) => {
      const style = getComputedStyle(document.querySelector(selector) as Element);
      return `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    };
    const fonts = [".site-nav a", ".site-nav a", ".site-nav a", ".account-link", ".search-box__input"].map(
      fontOf,
    );
    const context = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;
    const measure = (text: string, font: string) => {
      context.font = font;
      return context.measureText(text).width;
    };
    return labels.map((words) =>
      words.map((text, index) => {
        const font = fonts[index] as string;
        return {
          line: measure(text, font),
          word: Math.max(...text.split(" ").map((word) => measure(word, font))),
        };
      }),
    );
  }, labels);
  const widest = (score: (lang: number) => number) =>
    languageKeys.reduce((best, _, lang) => (score(lang) > score(best) ? lang : best), 0);
  const chosen = new Set<number>();
  labelKeys.forEach((_, key) => {
    chosen.add(widest((lang) => widthsOf[lang]?.[key]?.line ?? 0));
    chosen.add(widest((lang) => widthsOf[lang]?.[key]?.word ?? 0));
  });
  chosen.add(widest((lang) => (widthsOf[lang] ?? []).reduce((sum, width) => sum + width.line, 0)));
  return [...chosen].map((lang) => languageKeys[lang] as LanguageKey);
}

/**
 * What is wrong with the header as it is laid out now, one line a fault. The items are the brand,
 * the search box, the section links and the account area, each checked with what it shows (a
 * control's visually hidden name is for screen readers, and is not checked).
 */
function headerFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const header = document.querySelector(".site-header") as HTMLElement;
    const bar = header.querySelector(".site-header__bar") as HTMLElement;
    const headerBox = header.getBoundingClientRect();
    const barStyle = getComputedStyle(bar);
    const barBox = bar.getBoundingClientRect();
    const rowStart = barBox.left + Number.parseFloat(barStyle.paddingLeft);
    const rowEnd = barBox.right - Number.parseFloat(barStyle.paddingRight);
    const items = [
      ...bar.querySelectorAll<HTMLElement>(
        ".brand, .site-header__search, .site-nav a, .account-link, .account-menu summary",
      ),
    ];
    const nameOf = (element: Element) =>
      `${element.className || element.tagName.toLowerCase()} “${(element.textContent ?? "").trim().slice(0, 30)}”`;
    // The search box's placeholder (the AMP page's box: its text) may end in "…" only where the box
    // has its row to itself already: a phone narrower than the longest placeholders.
    const search = bar.querySelector<HTMLElement>(".site-header__search");
    const searchHasTheRow = search
      ? search.getBoundingClientRect().left <= rowStart + 1 &&
        search.getBoundingClientRect().right >= rowEnd - 1
      : false;
    const mayEndInEllipsis = (element: HTMLElement) =>
      searchHasTheRow && search?.contains(element) && getComputedStyle(element).textOverflow === "ellipsis";
    const context = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;

    for (const item of items) {
      for (const element of [item, ...item.querySelectorAll<HTMLElement>("*:not(.visually-hidden)")]) {
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        const name = nameOf(element);
        if (style.visibility !== "visible" || style.opacity === "0" || style.clipPath !== "none") {
          faults.push(`${name} is hidden (${style.visibility}, opacity ${style.opacity}, ${style.clipPath})`);
        }
        if (box.width < 1 || box.height < 1) faults.push(`${name} has no size`);
        if (
          box.left < 0 ||
          box.right > window.innerWidth ||
          box.top < headerBox.top ||
          box.bottom > headerBox.bottom
        ) {
          faults.push(`${name} is outside the header (${Math.round(box.left)}–${Math.round(box.right)})`);
        }
        if (element instanceof HTMLInputElement) {
          context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const room =
            element.clientWidth -
            Number.parseFloat(style.paddingLeft) -
            Number.parseFloat(style.paddingRight);
          const needs = context.measureText(element.placeholder).width;
          if (needs > room && !mayEndInEllipsis(element)) {
            faults.push(
              `the placeholder “${element.placeholder}” is cut (${Math.ceil(needs)} px in ${room})`,
            );
          }
        } else if (style.display !== "inline") {
          // An inline box has no client size: the block that holds it is checked.
          const cut =
            element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
          if (cut && !mayEndInEllipsis(element)) {
            faults.push(
              `${name} is cut (${element.scrollWidth}×${element.scrollHeight} in ${element.clientWidth}×${element.clientHeight})`,
            );
          }
        }
      }
    }
    const boxes = items.map((item) => ({ item, box: item.getBoundingClientRect() }));
    boxes.forEach((a, index) => {
      for (const b of boxes.slice(index + 1)) {
        const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (across > 0.5 && down > 0.5) faults.push(`${nameOf(a.item)} overlaps ${nameOf(b.item)}`);
      }
    });
    const brand = bar.querySelector(".brand")?.getBoundingClientRect();
    const account = bar.querySelector(".account-link, .account-menu")?.getBoundingClientRect();
    if (brand && account && (account.top >= brand.bottom || Math.abs(account.right - rowEnd) > 1)) {
      faults.push("the account area is not in the top-right corner");
    }
    // The sticky header's height, which scroll offsets and sticky panels below it count on.
    const probe = document.createElement("div");
    probe.style.height = "var(--header-height)";
    document.body.appendChild(probe);
    const allowed = probe.getBoundingClientRect().height;
    probe.remove();
    if (headerBox.height > allowed + 0.5) {
      faults.push(`the header is ${headerBox.height} px high, --header-height ${allowed} px`);
    }
    return faults;
  });
}

/** The faults of the open page's header at each of `widths`, each line with its width. */
async function faultsAtEveryWidth(page: Page, lang: LanguageKey): Promise<string[]> {
  const faults: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    faults.push(...(await headerFaults(page)).map((fault) => `${lang} at ${width} px: ${fault}`));
  }
  return faults;
}

beforeAll(async () => {
  browser = await launchBrowser();
  const { page } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${baseURL}/charts`);
  longest = await longestLanguages(page);
  await page.context().close();
});

afterAll(async () => {
  await browser?.close();
});

test("the header holds at every width in the languages with the longest words", async () => {
  const { page, errors } = await openPage(browser);
  const faults: string[] = [];
  for (const lang of longest) {
    await page.goto(`${baseURL}${localizedPath(lang, "/charts")}`);
    faults.push(...(await faultsAtEveryWidth(page, lang)));
  }
  expect(faults).toEqual([]);
  expect(errors).toEqual([]);
  await page.context().close();
});

test("the AMP header holds at every width in the same languages", async () => {
  const faults: string[] = [];
  for (const lang of longest) {
    const { page } = await openAmp(browser, `${baseURL}/amp${localizedPath(lang, "/charts")}`, {
      width: 1280,
      height: 800,
    });
    faults.push(...(await faultsAtEveryWidth(page, lang)));
    await page.context().close();
  }
  expect(faults).toEqual([]);
});

test("signed in, with the account menu in the corner, the header holds the same way", async () => {
  const { page, errors } = await openPage(browser);
  await signInByEmail(page, "/charts", uniqueAddress("header"));
  const faults: string[] = [];
  for (const lang of longest) {
    await page.goto(`${baseURL}${localizedPath(lang, "/charts")}`);
    await page.locator(".account-menu").waitFor();
    faults.push(...(await faultsAtEveryWidth(page, lang)));
  }
  expect(faults).toEqual([]);
  expect(errors).toEqual([]);
  await page.context().close();
});

test("on a phone the header shows the site's name beside its mark", async () => {
  const { page } = await openPage(browser, { viewport: { width: 320, height: 640 } });
  await page.goto(`${baseURL}/`);
  const name = page.locator(".site-header .brand__name");
  await expect(name.textContent()).resolves.toBe("Tunewave");
  const box = await name.boundingBox();
  expect(box?.width).toBeGreaterThan(60);
  await page.context().close();
});

test.each([
  [390, "light"],
  [900, "dark"],
  [1280, "light"],
] as const)(
  "at %i px (%s) the keyboard reaches brand, search, sections and account in that order",
  async (width, colorScheme) => {
    const { page } = await openPage(browser, { viewport: { width, height: 800 }, colorScheme });
    await page.goto(`${baseURL}/charts`);
    const order: string[] = [];
    await page.locator(".skip-link").focus();
    for (let step = 0; step < 7; step += 1) {
      await page.keyboard.press("Tab");
      order.push(
        await page.evaluate(() => {
          const active = document.activeElement as HTMLElement;
          return (
            active.getAttribute("aria-label") ??
            (active.getAttribute("placeholder") || (active.textContent ?? "").trim())
          );
        }),
      );
    }
    expect(order).toEqual([
      "Tunewave",
      "Search for songs and artists",
      "Search",
      "Charts",
      "Concerts",
      "Identify a song",
      "Sign in",
    ]);
    expect(await axeViolations(page, ".site-header")).toEqual([]);
    await page.context().close();
  },
);
