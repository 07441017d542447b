import { describe, expect, test } from "vitest";
import { isCrossSiteRequest } from "#edge/request-context.ts";

// Which requests may change data: a form of this site, not one another site made (decision 030). The
// rule compares with the site's origin (SITE_ORIGIN), never with the request's own Host.

const site = "https://www.tunewave.test";
const page = `${site}/myshazam?index`;

describe("isCrossSiteRequest", () => {
  test.each([
    ["a GET from anywhere", "GET", { origin: "https://evil.test", "sec-fetch-site": "cross-site" }, false],
    ["a HEAD", "HEAD", { "sec-fetch-site": "cross-site" }, false],
    ["this site's form", "POST", { origin: site, "sec-fetch-site": "same-origin" }, false],
    ["this site's fetch without Sec-Fetch-Site", "DELETE", { origin: site }, false],
    ["a POST without Origin or Sec-Fetch-Site (a script, the native app)", "POST", {}, false],
    ["another site's form", "POST", { origin: "https://evil.test" }, true],
    ["another port of this host", "POST", { origin: "https://www.tunewave.test:8443" }, true],
    ["this host over http", "POST", { origin: "http://www.tunewave.test" }, true],
    [
      "a sibling subdomain (same site, another origin)",
      "POST",
      { origin: "https://tunewave.test", "sec-fetch-site": "same-site" },
      true,
    ],
    ["a sibling subdomain that says nothing else", "POST", { origin: "https://static.tunewave.test" }, true],
    ["an opaque origin (a sandboxed frame)", "POST", { origin: "null" }, true],
    ["an Origin that is not a URL", "POST", { origin: "not a url" }, true],
    ["this origin with a path", "POST", { origin: `${site}/` }, true],
    [
      "this origin but the browser says same-site",
      "POST",
      { origin: site, "sec-fetch-site": "same-site" },
      true,
    ],
    ["a browser that says cross-site without Origin", "DELETE", { "sec-fetch-site": "cross-site" }, true],
    ["a navigation the person typed (none)", "POST", { "sec-fetch-site": "none" }, true],
  ])("%s: %s → %s", (_name, method, headers, crossSite) => {
    expect(isCrossSiteRequest(new Request(page, { method, headers }), site)).toBe(crossSite);
  });

  test("the request's own Host is not the site: a request to another host from that host is cross-site", () => {
    const request = new Request("https://evil.example/logout", {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    expect(isCrossSiteRequest(request, site)).toBe(true);
  });
});
