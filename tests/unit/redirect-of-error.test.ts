import { expect, test } from "vitest";
import { redirectOfError } from "#app/shell/http.server.ts";
import { SiteError } from "#rules/errors.ts";

// Spec 000 §8 "Redirect error: uses path and status": where an upstream 3xx moves a page, and when
// it is no place to go. The page only ever moves within this site.

const redirectError = (location: unknown, status?: number) =>
  new SiteError("redirect", "moved", { status, args: { location } });

test.each([
  ["a page path", "/track/1/alias", 301, { path: "/track/1/alias", status: 301 }],
  ["a path with its query", "/search?term=a", 308, { path: "/search?term=a", status: 308 }],
  [
    "an absolute URL keeps its path and query",
    "https://upstream.example/artist/2?x=1",
    302,
    { path: "/artist/2?x=1", status: 302 },
  ],
  ["no status", "/charts", undefined, { path: "/charts", status: 302 }],
  ["304 is no move", "/charts", 304, { path: "/charts", status: 302 }],
  ["a protocol-relative Location stays on this site", "//evil.example/x", 302, { path: "/x", status: 302 }],
  [
    "a path that starts with two slashes",
    "https://upstream.example//evil.example",
    302,
    { path: "/evil.example", status: 302 },
  ],
  [
    "a backslash makes another host: only its path is kept",
    "/\\evil.example",
    302,
    { path: "/", status: 302 },
  ],
  ["a data address is not a page", "/services/track/1", 302, undefined],
  ["another scheme", "javascript:alert(1)", 302, undefined],
  ["no Location", undefined, 302, undefined],
] as const)("%s", (_, location, status, expected) => {
  expect(redirectOfError(redirectError(location, status))).toEqual(expected);
});

test("another error type never moves", () => {
  expect(redirectOfError(new SiteError("notfound", "gone", { args: { location: "/" } }))).toBeUndefined();
});
