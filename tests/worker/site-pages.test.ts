import "#tests/all-languages.ts";
import { SELF } from "cloudflare:test";
import * as v from "valibot";
import { expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { storeLinks } from "#rules/app-links.ts";
import { languages, localizedPath } from "#rules/languages.ts";
import { ampPath } from "#rules/path.ts";
import { radioChartSchema, radioChartSize } from "#rules/radio.ts";
import { agent, site } from "./browser-jar";
import { decode, getAs } from "./site";

// The remaining pages (decision 024) inside workerd: each answers in every language with its own
// title, has its AMP form where it is a content page, and shows the data the origin serves.

const get = getAs({ "user-agent": agent });

const titleOf = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "");

/** Each page, the string its document title is, and whether it has an AMP form. */
const pages = [
  ["/apps", "common:pageTitle.apps", true],
  ["/careers", "common:pageTitle.careers", true],
  ["/developers", "common:pageTitle.developers", true],
  ["/verify", "common:pageTitle.verify", false],
  ["/survey", "common:pageTitle.survey", false],
] as const;

test.each(languages.map((language) => [language.key]))(
  "the remaining pages answer in %s with their own titles",
  async (lang) => {
    const { t } = serverStrings(lang);
    for (const [path, title, amp] of pages) {
      const response = await get(localizedPath(lang, path));
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(titleOf(html), path).toBe(t(title));
      expect(html.includes('rel="amphtml"'), path).toBe(amp);
      expect(html, path).toContain(`hrefLang="x-default"`);
      expect(html, path).toContain('property="og:title"');
    }
  },
);

test("the AMP forms answer, canonical to the React pages", async () => {
  for (const path of ["/apps", "/careers", "/developers", "/radio-spins/soundtrack"]) {
    const response = await get(ampPath("fr", path));
    expect(response.status, path).toBe(200);
    const html = await response.text();
    expect(html, path).toContain("<html amp");
    expect(/<link rel="canonical" href="([^"]+)"/.exec(html)?.[1], path).toBe(`${site}/fr${path}`);
  }
});

test("the careers page lists the open roles the origin serves", async () => {
  const served = await SELF.fetch(`${site}/services/careers/roles`);
  const { roles } = (await served.json()) as { roles: { id: string; title: string }[] };
  expect(roles.length).toBeGreaterThan(0);
  const html = await (await get("/careers")).text();
  for (const role of roles) {
    expect(html).toContain(`id="${role.id}"`);
    expect(html).toContain(role.title);
  }
  expect(html).toContain("mailto:careers@tunewave.test?subject=");
});

test("a genre's radio spins: the origin's airplay chart, the same on every call, on its page", async () => {
  const first = await (await SELF.fetch(`${site}/services/charts/radio/soundtrack`)).json();
  const again = await (await SELF.fetch(`${site}/services/charts/radio/soundtrack`)).json();
  expect(again).toEqual(first);
  const { entries } = v.parse(radioChartSchema, first);
  expect(entries.length).toBeGreaterThan(0);
  expect(entries.length).toBeLessThanOrEqual(radioChartSize);
  const spins = entries.map((entry) => entry.spins);
  expect(spins).toEqual([...spins].sort((a, b) => b - a));
  const html = await (await get("/radio-spins/soundtrack")).text();
  expect(decode(html)).toContain(entries[0]?.track.title);
  expect((await get("/radio-spins/Soundtrack")).headers.get("location")).toBe("/radio-spins/soundtrack");
  expect((await get("/radio-spins/no-such-genre")).status).toBe(404);
  expect((await get("/services/charts/radio/no-such-genre")).status).toBe(404);
  const landing = await (await get("/charts")).text();
  expect(landing).toContain('href="/radio-spins/soundtrack"');
});

test("the apps page puts the visitor's store first, both badges as links, and the recognition button", async () => {
  const android = await (
    await get("/apps", {
      headers: { "user-agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile" },
    })
  ).text();
  const iphone = await (
    await get("/apps", {
      headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1" },
    })
  ).text();
  for (const html of [android, iphone]) {
    expect(html).toContain(`href="${storeLinks.ios}"`);
    expect(html).toContain(`href="${storeLinks.android}"`);
    expect(html).toContain('href="/identify"');
  }
  expect(android.indexOf(storeLinks.android)).toBeLessThan(android.indexOf(storeLinks.ios));
  expect(iphone.indexOf(storeLinks.ios)).toBeLessThan(iphone.indexOf(storeLinks.android));
});

test("the developer page describes the match call with the example", async () => {
  const html = decode(await (await get("/developers")).text());
  expect(html).toContain("POST /services/webrec/match");
  expect(html).toContain("encodeSignatureBase64(signature)");
  expect(html).toContain("npx vite-node tools/developer-kit/example.ts");
});

test("every page's footer links to each of the site's own pages, React and AMP", async () => {
  const { t } = serverStrings("de");
  for (const path of ["/de", "/amp/de", "/de/terms"]) {
    const html = decode(await (await get(path)).text());
    const footer = html.slice(html.indexOf('<ul class="site-footer__links">'));
    for (const [key, href] of [
      ["company", "/de/company"],
      ["careers", "/de/careers"],
      ["apps", "/de/apps"],
      ["developers", "/de/developers"],
      ["verify", "/de/verify"],
      ["survey", "/de/survey"],
      ["terms", "/de/terms"],
      ["privacy", "/de/privacy"],
    ]) {
      expect(footer, `${path} ${key}`).toMatch(new RegExp(`href="${href}"[^>]*>${t(`footer.${key}`)}<`));
    }
  }
});
