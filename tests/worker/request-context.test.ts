import { describe, expect, test } from "vitest";
import { type RequestContext, resolveRequest } from "#edge/request-context.ts";

const origin = "https://www.tunewave.test";
const browser =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const guid = "0f8fad5b-d9cb-469f-a165-70867728950e";
const inid = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const appConfig = (json: string) => `appconfig=${encodeURIComponent(json)}`;

type Case = {
  name: string;
  url: string;
  cf?: { country?: unknown } | undefined;
  cookie?: string;
  acceptLanguage?: string;
  userAgent?: string;
  expected: Partial<Omit<RequestContext, "path">> & { path?: Partial<RequestContext["path"]> };
};

function request({ url, cookie, acceptLanguage, userAgent }: Case): Request {
  const headers = new Headers({ "user-agent": userAgent ?? browser });
  if (cookie !== undefined) headers.set("cookie", cookie);
  if (acceptLanguage !== undefined) headers.set("accept-language", acceptLanguage);
  return new Request(new URL(url, origin), { headers });
}

const cases: Case[] = [
  // Language: the order of spec 000 §4, and a prefix over all of it.
  {
    name: "nothing: en, GB",
    url: "/",
    expected: { lang: "en", locale: "en-US", country: "GB", languageSource: "default" },
  },
  {
    name: "prefix de",
    url: "/de/charts",
    expected: { lang: "de", locale: "de-DE", languageSource: "prefix" },
  },
  { name: "prefix pt-br", url: "/pt-br/track/1", expected: { lang: "pt-br", locale: "pt-BR" } },
  { name: "prefix gb", url: "/gb", expected: { lang: "gb", locale: "en-GB", path: { pageType: "home" } } },
  { name: "prefix zh-tw", url: "/zh-tw/search", expected: { lang: "zh-tw", locale: "zh-TW" } },
  { name: "prefix alias zh-hk", url: "/zh-hk/search", expected: { lang: "zh-tw", languageSource: "prefix" } },
  { name: "prefix alias zh-hant", url: "/zh-hant", expected: { lang: "zh-tw" } },
  { name: "prefix alias zh-mo", url: "/zh-mo/apps", expected: { lang: "zh-tw" } },
  {
    name: "prefix en",
    url: "/en/apps",
    cookie: "lang=de",
    expected: { lang: "en", languageSource: "prefix" },
  },
  {
    name: "prefix upper case",
    url: "/FR/apps",
    expected: { lang: "fr", path: { nonCanonicalPrefix: "FR" } },
  },
  {
    name: "prefix wins over lang",
    url: "/de/charts?lang=fr",
    expected: { lang: "de", languageSource: "prefix" },
  },
  { name: "prefix wins over cookie", url: "/ja", cookie: "lang=ko", expected: { lang: "ja" } },
  {
    name: "prefix wins over Accept-Language",
    url: "/it/charts",
    acceptLanguage: "nl",
    expected: { lang: "it", languageSource: "prefix" },
  },
  {
    name: "lang on an unprefixed URL",
    url: "/charts?lang=fr",
    expected: { lang: "fr", languageSource: "lang" },
  },
  { name: "lang over cookie", url: "/charts?lang=fr", cookie: "lang=de", expected: { lang: "fr" } },
  {
    name: "lang over Accept-Language",
    url: "/?lang=es-MX",
    acceptLanguage: "de",
    expected: { lang: "es-mx" },
  },
  {
    name: "lang by the part before the dash",
    url: "/?lang=fr-CA",
    expected: { lang: "fr", languageSource: "lang" },
  },
  { name: "lang alias gb", url: "/?lang=gb", expected: { lang: "gb", locale: "en-GB" } },
  {
    name: "lang alias en",
    url: "/?lang=en",
    cookie: "lang=de",
    expected: { lang: "en", languageSource: "lang" },
  },
  { name: "lang alias zh-Hant", url: "/?lang=zh-Hant", expected: { lang: "zh-tw" } },
  { name: "lang with underscore", url: "/?lang=pt_BR", expected: { lang: "pt-br" } },
  {
    name: "unknown lang refused, cookie next",
    url: "/?lang=sv",
    cookie: "lang=nl",
    expected: { lang: "nl", languageSource: "cookie" },
  },
  {
    name: "malformed lang refused, Accept-Language next",
    url: "/?lang=%3Cscript%3E",
    acceptLanguage: "ko",
    expected: { lang: "ko", languageSource: "accept-language" },
  },
  { name: "cookie", url: "/charts", cookie: "lang=pl", expected: { lang: "pl", languageSource: "cookie" } },
  {
    name: "cookie over Accept-Language",
    url: "/",
    cookie: "lang=pl",
    acceptLanguage: "tr",
    expected: { lang: "pl" },
  },
  {
    name: "unknown cookie refused",
    url: "/",
    cookie: "lang=xx",
    acceptLanguage: "tr",
    expected: { lang: "tr", languageSource: "accept-language" },
  },
  {
    name: "malformed cookie refused",
    url: "/",
    cookie: "lang=%22%3B",
    expected: { lang: "en", languageSource: "default" },
  },
  {
    name: "Accept-Language first known tag",
    url: "/",
    acceptLanguage: "ru-RU,ru;q=0.9,en;q=0.8",
    expected: { lang: "ru", languageSource: "accept-language" },
  },
  {
    name: "Accept-Language later tag",
    url: "/",
    acceptLanguage: "sv-SE,da;q=0.9,cs;q=0.8",
    expected: { lang: "cs" },
  },
  {
    name: "Accept-Language in q-order",
    url: "/",
    acceptLanguage: "el;q=0.3,hi;q=0.8",
    expected: { lang: "hi" },
  },
  { name: "Accept-Language en-GB", url: "/", acceptLanguage: "en-GB,en;q=0.9", expected: { lang: "gb" } },
  { name: "Accept-Language zh-Hant-TW", url: "/", acceptLanguage: "zh-Hant-TW", expected: { lang: "zh-tw" } },
  { name: "Accept-Language zh-CN", url: "/", acceptLanguage: "zh-CN,zh;q=0.9", expected: { lang: "zh-cn" } },
  {
    name: "Accept-Language id",
    url: "/",
    acceptLanguage: "id-ID",
    expected: { lang: "id", locale: "id-ID" },
  },
  {
    name: "Accept-Language malformed entries ignored",
    url: "/",
    acceptLanguage: "de;q=abc, ;;, fr;q=2, it;q=0.5",
    expected: { lang: "it" },
  },
  {
    name: "Accept-Language entirely malformed",
    url: "/",
    acceptLanguage: ";;;===",
    expected: { lang: "en", languageSource: "default" },
  },
  {
    name: "Accept-Language nothing supported",
    url: "/",
    acceptLanguage: "sv,da;q=0.5",
    expected: { lang: "en", languageSource: "default" },
  },
  { name: "Accept-Language q=0 refused", url: "/", acceptLanguage: "de;q=0, sv", expected: { lang: "en" } },

  // Country: co, app config, IP, GB.
  { name: "IP country", url: "/", cf: { country: "JP" }, expected: { country: "JP", countrySource: "ip" } },
  {
    name: "co over IP",
    url: "/?co=DE",
    cf: { country: "JP" },
    expected: { country: "DE", countrySource: "co" },
  },
  { name: "co lower case", url: "/?co=fr", expected: { country: "FR", countrySource: "co" } },
  { name: "co WORLD", url: "/?co=world", expected: { country: "WORLD" } },
  { name: "co GLOBAL", url: "/?co=GLOBAL", expected: { country: "GLOBAL" } },
  { name: "co historic code", url: "/?co=YU", expected: { country: "YU", countrySource: "co" } },
  {
    name: "unknown co refused",
    url: "/?co=QQ",
    cf: { country: "US" },
    expected: { country: "US", countrySource: "ip" },
  },
  {
    name: "malformed co refused",
    url: "/?co=%3Cb%3E",
    expected: { country: "GB", countrySource: "default" },
  },
  {
    name: "app config country",
    url: "/",
    cookie: appConfig('{"country":"BR"}'),
    cf: { country: "US" },
    expected: { country: "BR", countrySource: "appconfig", inApp: true },
  },
  {
    name: "co over app config",
    url: "/?co=MX",
    cookie: appConfig('{"country":"BR"}'),
    expected: { country: "MX", countrySource: "co" },
  },
  {
    name: "unknown app config country refused",
    url: "/",
    cookie: appConfig('{"country":"QQ"}'),
    cf: { country: "US" },
    expected: { country: "US", countrySource: "ip", inApp: true },
  },
  {
    name: "broken app config ignored",
    url: "/",
    cookie: "appconfig=%7Bnot-json",
    cf: { country: "US" },
    expected: { country: "US", inApp: false },
  },
  {
    name: "IP Tor refused",
    url: "/",
    cf: { country: "T1" },
    expected: { country: "GB", countrySource: "default" },
  },
  { name: "IP unknown XX refused", url: "/", cf: { country: "XX" }, expected: { country: "GB" } },
  { name: "IP not a string", url: "/", cf: { country: 42 }, expected: { country: "GB" } },
  { name: "no cf object", url: "/", cf: undefined, expected: { country: "GB", countrySource: "default" } },

  // Paths.
  { name: "root is /home", url: "/", expected: { path: { pageType: "home", canonicalPath: "/home" } } },
  {
    name: "/amp marks a lightweight page",
    url: "/amp/track/1",
    expected: { isAmp: true, beaconsSuppressed: true },
  },
  { name: "/amp then prefix", url: "/amp/de/track/1", expected: { isAmp: true, lang: "de" } },
  { name: "prefix then /amp", url: "/de/amp/track/1", expected: { isAmp: true, lang: "de" } },
  { name: "/amp root", url: "/amp", expected: { isAmp: true, path: { pageType: "home" } } },
  {
    name: "chart page",
    url: "/es/top-200/spain",
    expected: { lang: "es", path: { pageType: "chartsview", chartType: "top-200" } },
  },
  {
    name: "error page",
    url: "/error/notfound",
    expected: { path: { pageType: "error", errorType: "notfound" } },
  },
  { name: "unknown page", url: "/nothing-here", expected: { path: { pageType: "unknown" } } },
  {
    name: "unknown prefix is a path",
    url: "/sv/charts",
    expected: { lang: "en", path: { pageType: "unknown" } },
  },

  // Bots, app, parameters.
  {
    name: "bot: beacons suppressed",
    url: "/",
    userAgent: googlebot,
    expected: { isBot: true, beaconsSuppressed: true },
  },
  {
    name: "browser: beacons on",
    url: "/",
    expected: { isBot: false, beaconsSuppressed: false, inApp: false },
  },
  { name: "nohf", url: "/?nohf", expected: { hideHeaderFooter: true } },
  { name: "nohf=1", url: "/?nohf=1", expected: { hideHeaderFooter: true } },
  { name: "nohf=0", url: "/?nohf=0", expected: { hideHeaderFooter: false } },
  { name: "nohf=bogus dropped", url: "/?nohf=bogus", expected: { hideHeaderFooter: false } },
  {
    name: "all parameters",
    url: `/?inid=${inid}&referrer=newsletter&refid=abc-1&fb_locale=de_DE&device=tablet&preview=true&netlog=1&stats-window-listener=1`,
    expected: {
      inid,
      params: {
        lang: undefined,
        co: undefined,
        inid,
        referrer: "newsletter",
        refid: "abc-1",
        nohf: undefined,
        fb_locale: "de_DE",
        device: "tablet",
        preview: true,
        netlog: true,
        "stats-window-listener": true,
      },
    },
  },
  {
    name: "bad parameters dropped",
    url: "/?inid=123&referrer=%3Cscript%3E&refid=a%20b&fb_locale=german&device=toaster&preview=maybe&netlog=true",
    expected: {
      inid: undefined,
      params: {
        lang: undefined,
        co: undefined,
        inid: undefined,
        referrer: undefined,
        refid: undefined,
        nohf: undefined,
        fb_locale: undefined,
        device: undefined,
        preview: undefined,
        netlog: false,
        "stats-window-listener": undefined,
      },
    },
  },
  { name: "install id from cookie", url: "/", cookie: `inid=${inid}`, expected: { inid } },
  {
    name: "returning visitor",
    url: "/",
    cookie: `webId=${guid}`,
    expected: { webId: guid, newVisitor: false },
  },
];

describe("resolveRequest", () => {
  test("at least 60 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  test.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const context = resolveRequest(request(c), "cf" in c ? c.cf : { country: undefined });
    expect(context).toMatchObject(c.expected);
  });
});

describe("cookies the edge writes", () => {
  const cookieNames = (context: RequestContext) => context.setCookies.map((cookie) => cookie.split("=")[0]);

  test("a new visitor gets a web id for one year (SameSite Lax, Secure on https)", () => {
    const context = resolveRequest(request({ name: "", url: "/", expected: {} }), undefined);
    expect(context.newVisitor).toBe(true);
    expect(context.webId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(context.setCookies).toEqual([
      `webId=${context.webId}; Max-Age=31536000; Path=/; SameSite=Lax; Secure`,
    ]);
  });

  test("over http the cookies are not Secure", () => {
    const context = resolveRequest(
      request({ name: "", url: "http://localhost:8787/de", expected: {} }),
      undefined,
    );
    expect(context.secure).toBe(false);
    expect(context.setCookies.every((cookie) => !cookie.includes("Secure"))).toBe(true);
    expect(context.setCookies).toContain("lang=de; Max-Age=15552000; Path=/; SameSite=Strict");
  });

  test("the web id generator can be given", () => {
    const context = resolveRequest(request({ name: "", url: "/", expected: {} }), undefined, {
      newWebId: () => guid,
    });
    expect(context.webId).toBe(guid);
  });

  test.each([
    { name: "a new visitor", cookie: undefined },
    { name: "a visitor with an id from before", cookie: `webId=${guid}` },
  ])("Sec-GPC: 1, $name: no web id and no id cookie", ({ cookie }) => {
    const untracked = request({ name: "", url: "/", cookie, expected: {} });
    untracked.headers.set("sec-gpc", "1");
    const context = resolveRequest(untracked, undefined, { newWebId: () => guid });
    expect(context.webId).toBeUndefined();
    expect(context.setCookies.filter((line) => line.startsWith("webId="))).toEqual([]);
  });

  test("a returning visitor keeps the id and gets no cookie", () => {
    const context = resolveRequest(
      request({ name: "", url: "/", cookie: `webId=${guid}`, expected: {} }),
      undefined,
    );
    expect(context.setCookies).toEqual([]);
  });

  test("a broken web id is replaced", () => {
    const context = resolveRequest(
      request({ name: "", url: "/", cookie: "webId=nope", expected: {} }),
      undefined,
    );
    expect(context.newVisitor).toBe(true);
    expect(context.webId).not.toBe("nope");
    expect(cookieNames(context)).toEqual(["webId"]);
  });

  test.each([
    ["a prefix writes the language cookie", "/de/charts", `webId=${guid}`, ["lang=de"]],
    ["lang writes the language cookie", "/charts?lang=ko", `webId=${guid}`, ["lang=ko"]],
    ["an alias writes the key", "/?lang=zh-hk", `webId=${guid}`, ["lang=zh-tw"]],
    ["not when the cookie already holds it", "/de/charts", `webId=${guid}; lang=de`, []],
    ["not from Accept-Language", "/", `webId=${guid}`, []],
    ["not from the cookie itself", "/", `webId=${guid}; lang=fr`, []],
    ["inid writes the install id", `/?inid=${inid}`, `webId=${guid}`, [`inid=${inid}`]],
    ["not the same install id again", `/?inid=${inid}`, `webId=${guid}; inid=${inid}`, []],
  ])("%s", (_name, url, cookie, expected) => {
    const context = resolveRequest(request({ name: "", url, cookie, expected: {} }), undefined);
    expect(context.setCookies.map((value) => value.split(";")[0])).toEqual(expected);
    for (const value of context.setCookies) expect(value).toContain("; Path=/; SameSite=Strict; Secure");
  });

  test("no cookies on AMP answers", () => {
    const context = resolveRequest(
      request({ name: "", url: `/amp/de/track/1?inid=${inid}`, expected: {} }),
      undefined,
    );
    expect(context.setCookies).toEqual([]);
    expect(context.webId).toBeUndefined();
    expect(context.newVisitor).toBe(true);
  });

  test("no cookies for bots", () => {
    const context = resolveRequest(
      request({ name: "", url: "/de/charts?lang=fr", userAgent: googlebot, expected: {} }),
      undefined,
    );
    expect(context.setCookies).toEqual([]);
    expect(context.webId).toBeUndefined();
  });
});

describe("country names in workerd", () => {
  test("Intl.DisplayNames is there", async () => {
    const { countryName } = await import("#rules/countries.ts");
    expect(countryName("DE", "fr")).toBe("Allemagne");
    expect(countryName("WORLD", "ja")).toBe("世界");
  });
});
