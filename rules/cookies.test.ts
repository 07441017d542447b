import { describe, expect, test } from "vitest";
import {
  cookieMaxAgeSeconds,
  installIdCookie,
  languageCookie,
  parseCookieHeader,
  readCookies,
  serializeCookie,
  webIdCookie,
  webIdMaxAgeSeconds,
} from "#rules/cookies.ts";

const guid = "0f8fad5b-d9cb-469f-a165-70867728950e";

describe("constants", () => {
  test("180 days and one year, in seconds", () => {
    expect(cookieMaxAgeSeconds).toBe(15_552_000);
    expect(webIdMaxAgeSeconds).toBe(31_536_000);
  });
});

describe("parseCookieHeader", () => {
  test.each([
    [null, {}],
    ["", {}],
    ["a=1", { a: "1" }],
    ["a=1; b=2", { a: "1", b: "2" }],
    ["a=1;b=2;;", { a: "1", b: "2" }],
    ["a=1; a=2", { a: "1" }],
    ["a=%7B%22x%22%3A1%7D", { a: '{"x":1}' }],
    ['a="quoted"', { a: "quoted" }],
    ["a=%E0%A4%A", {}],
    ["novalue; b=2", { b: "2" }],
    ["=x; b=2", { b: "2" }],
    ["a=b=c", { a: "b=c" }],
    ["  spaced  =  v  ", { spaced: "v" }],
  ])("%j", (header, expected) => {
    expect(Object.fromEntries(parseCookieHeader(header))).toEqual(expected);
  });
});

describe("readCookies", () => {
  test.each([
    ["nothing", "", { webId: undefined, lang: undefined, inid: undefined, appConfig: undefined }],
    ["webId", `webId=${guid}`, { webId: guid }],
    ["webId upper case is normalised", `webId=${guid.toUpperCase()}`, { webId: guid }],
    ["webId not a guid", "webId=abc", { webId: undefined }],
    ["webId with script", "webId=%3Cscript%3E", { webId: undefined }],
    ["lang key", "lang=pt-br", { lang: "pt-br" }],
    ["lang locale", "lang=de_DE", { lang: "de_DE" }],
    ["lang malformed", "lang=de%3B%20x", { lang: undefined }],
    ["lang too long", `lang=${"a".repeat(8)}${"-abcdefgh".repeat(4)}`, { lang: undefined }],
    ["inid", `inid=${guid}`, { inid: guid }],
    ["inid not a guid", "inid=123", { inid: undefined }],
    ["appconfig", "appconfig=%7B%22country%22%3A%22de%22%7D", { appConfig: { country: "DE" } }],
    ["appconfig WORLD", "appconfig=%7B%22country%22%3A%22world%22%7D", { appConfig: { country: "WORLD" } }],
    [
      "appconfig extra fields",
      "appconfig=%7B%22country%22%3A%22FR%22%2C%22v%22%3A1%7D",
      { appConfig: { country: "FR" } },
    ],
    ["appconfig without country", "appconfig=%7B%7D", { appConfig: { country: undefined } }],
    ["appconfig bad country", "appconfig=%7B%22country%22%3A5%7D", { appConfig: { country: undefined } }],
    ["appconfig not JSON", "appconfig=country%3DDE", { appConfig: undefined }],
    ["appconfig JSON array", "appconfig=%5B1%5D", { appConfig: undefined }],
    ["appconfig JSON null", "appconfig=null", { appConfig: undefined }],
  ])("%s", (_name, header, expected) => {
    expect(readCookies(header)).toMatchObject(expected);
  });
});

describe("serializeCookie", () => {
  test.each([
    ["defaults", "a", "1", { secure: false }, "a=1; Max-Age=15552000; Path=/; SameSite=Strict"],
    ["https", "a", "1", { secure: true }, "a=1; Max-Age=15552000; Path=/; SameSite=Strict; Secure"],
    ["encoded", "a", "x y;z", { secure: false }, "a=x%20y%3Bz; Max-Age=15552000; Path=/; SameSite=Strict"],
    [
      "options",
      "a",
      "1",
      { secure: true, maxAge: 10, path: "/x", sameSite: "Lax", httpOnly: true },
      "a=1; Max-Age=10; Path=/x; SameSite=Lax; Secure; HttpOnly",
    ],
  ] as const)("%s", (_name, name, value, options, expected) => {
    expect(serializeCookie(name, value, options)).toBe(expected);
  });

  test("refuses a name that is not a token", () => {
    expect(() => serializeCookie("a b", "1", { secure: false })).toThrow();
    expect(() => serializeCookie("a;b", "1", { secure: false })).toThrow();
  });

  test("the edge's cookies", () => {
    expect(webIdCookie(guid, true)).toBe(`webId=${guid}; Max-Age=31536000; Path=/; SameSite=Lax; Secure`);
    expect(languageCookie("pt-br", false)).toBe("lang=pt-br; Max-Age=15552000; Path=/; SameSite=Strict");
    expect(installIdCookie(guid, true)).toBe(
      `inid=${guid}; Max-Age=15552000; Path=/; SameSite=Strict; Secure`,
    );
  });

  test("what the edge writes, it reads back", () => {
    const header = [webIdCookie(guid, true), languageCookie("zh-tw", true)]
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    expect(readCookies(header)).toMatchObject({ webId: guid, lang: "zh-tw" });
  });
});
