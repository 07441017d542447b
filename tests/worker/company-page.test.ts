import "#tests/all-languages.ts";
import { expect, test } from "vitest";
import { ampCacheControl } from "#amp/http.ts";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { languages, localizedPath } from "#rules/languages.ts";
import { ampPath } from "#rules/path.ts";
import { agent, site } from "./browser-jar";
import { decode, getAs } from "./site";

const get = getAs({ "user-agent": agent });

test.each(languages.map((language) => [language.key]))(
  "/company answers in %s with its own title",
  async (lang) => {
    const { t } = serverStrings(lang);
    const response = await get(localizedPath(lang, "/company"));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "")).toBe(t("common:pageTitle.company"));
    expect(decode(/<h1 id="company-title">([^<]*)<\/h1>/.exec(html)?.[1] ?? "")).toBe(t("company:title"));
    expect(html).toContain(`<link rel="amphtml" href="${site}${ampPath(lang, "/company")}"/>`);
    expect(html).toContain('"@type":"Organization"');
  },
);

test("the AMP form of /company is the same page, drawn as AMP, canonical to the React page", async () => {
  for (const [path, lang] of [
    ["/amp/company", "en-US"],
    ["/amp/ja/company", "ja-JP"],
  ] as const) {
    const response = await get(path);
    expect(response.status, path).toBe(200);
    expect(response.headers.get("cache-control"), path).toBe(ampCacheControl.page);
    const html = await response.text();
    expect(html, path).toContain(`<html amp lang="${lang}"`);
    expect(html, path).toContain('<h1 id="company-title">');
    const react = await (await get(path.replace("/amp", "") || "/")).text();
    const canonical = /<link rel="canonical" href="([^"]+)"/;
    expect(canonical.exec(html)?.[1], path).toBe(canonical.exec(react)?.[1]);
  }
});

test("every page's footer links to /company, in its language, on React and AMP pages", async () => {
  for (const [path, href] of [
    ["/", "/company"],
    ["/de", "/de/company"],
    ["/amp/de", "/de/company"],
  ] as const) {
    const html = await (await get(path)).text();
    expect(html, path).toMatch(
      new RegExp(`<ul class="site-footer__links"><li><a (data-discover="true" )?href="${href}"`),
    );
  }
});
