import { expect, test } from "vitest";
import { ampRedirectLocation } from "#amp/request.ts";
import { safeHref, safeImageSrc, safeSrcSet } from "#amp/safe.ts";
import { safeColour } from "#app/shell/view.ts";
import { ampPath, parsePath } from "#rules/path.ts";

test.each([
  ["/track/1/a", "/track/1/a"],
  ["/de/artist/x/1?x=1#y", "/de/artist/x/1?x=1#y"],
  ["https://open.spotify.com/x", "https://open.spotify.com/x"],
  ["http://example.com/", "http://example.com/"],
  ["mailto:?subject=a", "mailto:?subject=a"],
  ["javascript:alert(1)", undefined],
  ["JavaScript:alert(1)", undefined],
  [" javascript:alert(1)", undefined],
  ["data:text/html,<script>", undefined],
  ["vbscript:x", undefined],
  ["//evil.example/x", undefined],
  ["/\\evil.example/x", undefined],
  ['/x" onload="alert(1)', undefined],
  ["tunewave://track/1", undefined],
  ["relative/path", undefined],
  [undefined, undefined],
])("safeHref(%j) is %j", (href, expected) => {
  expect(safeHref(href)).toBe(expected);
});

test.each([
  ["/media/a.jpg", "/media/a.jpg"],
  ["https://cdn.example/a.jpg", "https://cdn.example/a.jpg"],
  ["mailto:a@b.c", undefined],
  ["javascript:alert(1)", undefined],
  ["data:image/png;base64,AA", undefined],
])("safeImageSrc(%j) is %j", (src, expected) => {
  expect(safeImageSrc(src)).toBe(expected);
});

test.each([
  ["/a/75.jpg 75w, /a/150.jpg 150w", "/a/75.jpg 75w, /a/150.jpg 150w"],
  ["/a.jpg 1x", "/a.jpg 1x"],
  ["/a.jpg", "/a.jpg"],
  ["/a.jpg 75w, javascript:alert(1) 150w", undefined],
  ["/a.jpg 75w onerror=x", undefined],
  ["", undefined],
])("safeSrcSet(%j) is %j", (srcSet, expected) => {
  expect(safeSrcSet(srcSet)).toBe(expected);
});

test.each([
  ["#3931a3", "#3931a3"],
  ["#FFF", "#FFF"],
  ["red", undefined],
  ["#123456;background:url(javascript:x)", undefined],
  ['#123456" onload="x', undefined],
  [undefined, undefined],
])("safeColour(%j) is %j", (colour, expected) => {
  expect(safeColour(colour)).toBe(expected);
});

test.each([
  ["/amp", undefined],
  ["/amp/de/track/1/a", undefined],
  ["/amp/track/1/a", undefined],
  ["/de/amp/track/1/a", "/amp/de/track/1/a"],
  ["/AMP/track/1/a", "/amp/track/1/a"],
  ["/amp/en/track/1/a", "/amp/track/1/a"],
  ["/en/amp", "/amp"],
  ["/amp/DE/home", "/amp/de"],
  ["/de/amp", "/amp/de"],
  ["/amp/zh-hk/track/1/a", "/amp/zh-tw/track/1/a"],
  ["/amp/secure/x", undefined],
])("the AMP address %s moves to %j", (pathname, expected) => {
  expect(ampRedirectLocation(parsePath(pathname), pathname)).toBe(expected);
});

test.each([
  ["en", "/home", "/amp"],
  ["de", "/home", "/amp/de"],
  ["en", "/track/1/a", "/amp/track/1/a"],
  ["pt-br", "/track/1/a", "/amp/pt-br/track/1/a"],
] as const)("ampPath(%s, %s) is %s", (lang, path, expected) => {
  expect(ampPath(lang, path)).toBe(expected);
});
