import { describe, expect, test } from "vitest";
import { isCrossSiteRequest } from "../../edge/request-context";

// Which requests may change data: a form of this site, not one another site made.

const page = "https://www.tunewave.test/myshazam?index";

describe("isCrossSiteRequest", () => {
  test.each([
    ["a GET from anywhere", "GET", { origin: "https://evil.test", "sec-fetch-site": "cross-site" }, false],
    ["a HEAD", "HEAD", { "sec-fetch-site": "cross-site" }, false],
    [
      "this site's form",
      "POST",
      { origin: "https://www.tunewave.test", "sec-fetch-site": "same-origin" },
      false,
    ],
    ["a POST without Origin or Sec-Fetch-Site (an old browser, a script)", "POST", {}, false],
    ["another site's form", "POST", { origin: "https://evil.test" }, true],
    ["another port of this host", "POST", { origin: "https://www.tunewave.test:8443" }, true],
    [
      "a sibling subdomain (same site, another origin)",
      "POST",
      { origin: "https://tunewave.test", "sec-fetch-site": "same-site" },
      true,
    ],
    ["an opaque origin (a sandboxed frame)", "POST", { origin: "null" }, true],
    ["an Origin that is not a URL", "POST", { origin: "not a url" }, true],
    ["a browser that says cross-site without Origin", "DELETE", { "sec-fetch-site": "cross-site" }, true],
    ["a navigation the person typed (none)", "POST", { "sec-fetch-site": "none" }, true],
  ])("%s: %s → %s", (_name, method, headers, crossSite) => {
    expect(isCrossSiteRequest(new Request(page, { method, headers }))).toBe(crossSite);
  });
});
