import { describe, expect, test } from "vitest";
import { forwardedHeaders, isSharedRead, makesIdentifications, serviceCallOf } from "./http";

// What each services call is, as its declaration says (decision 028), not as the request's headers
// happen to make it.
describe("each call declares what it is", () => {
  const browser = new Headers({
    cookie: "session=s",
    "user-agent": "Phone",
    "x-shz-lat": "51.5",
    "x-shz-lng": "-0.1",
    accept: "application/json",
  });
  const bare = new Headers();
  const cases = [
    {
      method: "GET",
      path: "/services/track/v1/en/GB/web/1",
      headers: browser,
      kind: "shared",
      shared: true,
      forwarded: [],
    },
    {
      method: "GET",
      path: "/services/charts/locations",
      headers: bare,
      kind: "shared",
      shared: true,
      forwarded: [],
    },
    // A visitor's read is theirs with or without a cookie on this request: never stored.
    {
      method: "GET",
      path: "/services/account/tags",
      headers: bare,
      kind: "visitor",
      shared: false,
      forwarded: [],
    },
    {
      method: "GET",
      path: "/services/account/tags",
      headers: browser,
      kind: "visitor",
      shared: false,
      forwarded: ["accept", "cookie", "user-agent", "x-shz-lat", "x-shz-lng"],
    },
    {
      method: "GET",
      path: "/services/metrics/web.pageview/1",
      headers: bare,
      kind: "visitor",
      shared: false,
      forwarded: [],
    },
    // Events: shared until the caller says where it is.
    {
      method: "GET",
      path: "/services/event/v1/GB/shazam-events",
      headers: bare,
      kind: "located",
      shared: true,
      forwarded: [],
    },
    {
      method: "GET",
      path: "/services/event/v1/GB/shazam-events",
      headers: browser,
      kind: "located",
      shared: false,
      forwarded: ["accept", "x-shz-lat", "x-shz-lng"],
    },
    // The longest prefix decides: the consent's Allow acts for the visitor, the token call is shared.
    {
      method: "GET",
      path: "/services/partner/oauth/commerce/oauth2/authorize",
      headers: browser,
      kind: "visitor",
      shared: false,
      forwarded: ["accept", "cookie", "user-agent"],
    },
    // A write is never a shared read, whatever its call.
    {
      method: "POST",
      path: "/services/partner/oauth/commerce/oauth2/token",
      headers: browser,
      kind: "shared",
      shared: false,
      forwarded: ["accept"],
    },
    { method: "GET", path: "/services/health", headers: bare, kind: "shared", shared: true, forwarded: [] },
  ] as const;
  test.each(cases)("$method $path ($kind)", ({ method, path, headers, kind, shared, forwarded }) => {
    expect(serviceCallOf(path)?.kind).toBe(kind);
    expect(isSharedRead(method, path, headers)).toBe(shared);
    expect([...forwardedHeaders(method, path, headers).keys()].sort()).toEqual([...forwarded]);
  });

  test("a path the site does not call has no call", () => {
    expect(serviceCallOf("/services/admin/users")).toBeUndefined();
    expect(serviceCallOf("/services/healthcheck")).toBeUndefined();
  });

  test("the calls that make identifications are the account's and the match's", () => {
    expect(makesIdentifications("/services/webrec/match")).toBe(true);
    expect(makesIdentifications("/services/account/tags")).toBe(true);
    expect(makesIdentifications("/services/metrics/x/1")).toBe(false);
    expect(makesIdentifications("/services/track/v1/en/GB/web/1")).toBe(false);
  });
});
