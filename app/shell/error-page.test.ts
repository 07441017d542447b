import { expect, test } from "vitest";
import { errorSignInHref, errorTitleKey } from "#app/shell/error-page.tsx";

// An unauthorized error page offers sign-in (spec 000 §8), back to the page that needed it.
test.each([
  [
    "a page that needs the account",
    "/de/privacy/download?x=1",
    "/de/login?redirect=%2Fde%2Fprivacy%2Fdownload%3Fx%3D1",
  ],
  ["the error area itself: nowhere to come back to", "/error/unauthorized", "/de/login"],
  ["the error area under a language", "/pt-br/error/unauthorized", "/de/login"],
  ["no page known (AMP without one)", undefined, "/de/login"],
])("%s", (_name, returnPath, href) => {
  expect(errorSignInHref("/de/login", returnPath)).toBe(href);
});

const keys = new Set(["error.contentunavailableTitle"]);
test.each([
  [404, "contentunavailable", "error.contentunavailableTitle"],
  [404, "notfound", "error.notfoundTitle"],
  [404, "concertunavailable", "error.notfoundTitle"],
  [502, "serviceerror", "error.title"],
  [401, "unauthorized", "error.title"],
  [500, undefined, "error.title"],
])("the heading of %i %s is %s", (status, type, key) => {
  expect(errorTitleKey(status, type, (k) => keys.has(k))).toBe(key);
});
