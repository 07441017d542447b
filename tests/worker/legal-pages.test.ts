import "#tests/all-languages.ts";
import { expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { languages, localizedPath } from "#rules/languages.ts";
import { ampPath } from "#rules/path.ts";
import { agent, site } from "./browser-jar";
import { getAs } from "./site";

// The terms of use and the privacy policy (decision 024): every language, the spec's sections and
// anchor, and every figure of spec 001 §9 in the text a person reads.

const get = getAs({ "user-agent": agent });

function decode(value: string): string {
  return value
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/** What a reader sees: the page's text without markup. */
function textOf(html: string): string {
  const body = html.slice(html.indexOf("<main"));
  return decode(body.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");
}

const titleOf = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "");

test.each(languages.map((language) => [language.key]))(
  "/terms and /privacy/policy answer in %s",
  async (lang) => {
    const { t } = serverStrings(lang);
    const terms = await get(localizedPath(lang, "/terms"));
    expect(terms.status).toBe(200);
    const termsHtml = await terms.text();
    expect(titleOf(termsHtml)).toBe(t("common:pageTitle.terms"));
    expect(termsHtml).toContain(
      `<h1 id="terms-title">${t("legal:terms.title").replaceAll("'", "&#x27;")}</h1>`,
    );
    expect(termsHtml).toContain(`<link rel="amphtml" href="${site}${ampPath(lang, "/terms")}"/>`);
    const policy = await get(localizedPath(lang, "/privacy/policy"));
    expect(policy.status).toBe(200);
    expect(titleOf(await policy.text())).toBe(t("privacy:pageTitle.policy"));
  },
);

test("the terms have the spec's sections, in order, and the French terms' anchor", async () => {
  const html = await (await get("/terms")).text();
  const headings = [...html.matchAll(/<h2 id="[^"]+-h">([^<]+)<\/h2>/g)].map((m) => decode(m[1] ?? ""));
  expect(headings.slice(0, 8)).toEqual([
    "General",
    "Usage Policy",
    "Copyright",
    "User Generated Content",
    "Availability of Services",
    "Legal Protection and Limitations",
    "Privacy Policy",
    "Additional Terms",
  ]);
  expect(html).toContain('<section id="french-terms" lang="fr"');
  expect(html).toContain('href="#french-terms"');
  expect(html).toContain('href="/privacy/policy"');
});

// Spec 001 §9 (and §1, §5 for the age), in the wording a reader finds in the text.
const termsFigures = [
  "over 13 years old",
  "three months",
  "$15",
  "under $75,000",
  "$1,000",
  "15 business days",
  "7 days",
  "$10.99 a month",
  "1 to 6 months",
];

test("the terms state every figure of spec 001 §9", async () => {
  const text = textOf(await (await get("/terms")).text());
  for (const figure of termsFigures) expect(text, figure).toContain(figure);
});

test("the French terms carry the same figures", async () => {
  const html = await (await get("/fr/terms")).text();
  const text = textOf(html);
  const french = text.slice(text.lastIndexOf("Conditions d'utilisation en français"));
  expect(french).not.toBe("");
  for (const figure of [
    "plus de 13 ans",
    "3 mois",
    "15 $ US",
    "75 000 $ US",
    "1 000 $ US",
    "15 jours ouvrables",
    "7 jours",
    "10,99 $ US",
    "de 1 à 6 mois",
  ]) {
    expect(french.replaceAll("\u202f", " "), figure).toContain(figure);
  }
});

test("the privacy policy gives both readings of deletion, 30 and 60 days, and the age of 13", async () => {
  const text = textOf(await (await get("/privacy/policy")).text());
  for (const figure of ["within 30 days", "within 60 days", "over 13"])
    expect(text, figure).toContain(figure);
  const landing = await (await get("/privacy")).text();
  expect(landing).toContain('href="/privacy/policy"');
});

test("the AMP form of /terms is the same page, canonical to the React page", async () => {
  const amp = await get("/amp/de/terms");
  expect(amp.status).toBe(200);
  const html = await amp.text();
  expect(html).toContain('<html amp lang="de-DE"');
  expect(html).toContain('<h1 id="terms-title">');
  expect(html).toContain('id="french-terms"');
  expect(/<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]).toBe(`${site}/de/terms`);
});
