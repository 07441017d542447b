import { SELF } from "cloudflare:test";
import { expect, test } from "vitest";

test("unknown paths get the site's own not-found page with status 404", async () => {
  for (const path of ["/no-such-page", "/de/no-such-page", "/xx/home", "/track"]) {
    const response = await SELF.fetch(`https://tunewave.test${path}`);
    expect(response.status, path).toBe(404);
    const html = await response.text();
    expect(html, path).toContain('class="error-page"');
  }
});

test("the error area answers each error type with its own status", async () => {
  const cases: [string, number][] = [
    ["/error/notfound", 404],
    ["/error/invalidparam", 400],
    ["/error/unauthorized", 401],
    ["/error/serviceerror", 502],
    ["/error/timeout", 504],
    // A registered status (RFC 9110), not nginx's 499: the call was cut off, a bad gateway.
    ["/error/abort", 502],
    ["/error/not-a-type", 404],
    ["/de/error/notfound", 404],
  ];
  for (const [path, status] of cases) {
    const response = await SELF.fetch(`https://tunewave.test${path}`);
    expect(response.status, path).toBe(status);
  }
});

/**
 * The error page as drawn: the page also carries its strings for the browser, and the header a
 * sign-in link of its own.
 */
function errorSection(html: string): string {
  return /<section class="error-page"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
}

test("error pages say spec 000 §8's texts: the ad-block hint on a failure, never on a missing page", async () => {
  const adBlock = "If you have ad block on, it may be causing a problem";
  const cases: [string, string, boolean][] = [
    ["/error/serviceerror", "Something went wrong :(", true],
    ["/error/timeout", "Something went wrong :(", true],
    ["/error/abort", "Something went wrong :(", true],
    ["/error/unauthorized", "Something went wrong :(", true],
    ["/error/notfound", "Oops! We&#x27;re sorry", false],
    ["/no-such-page", "Oops! We&#x27;re sorry", false],
  ];
  for (const [path, heading, hint] of cases) {
    const page = errorSection(await (await SELF.fetch(`https://tunewave.test${path}`)).text());
    expect(page, path).toContain(`<h1 id="error-title">${heading}</h1>`);
    expect(page.includes(adBlock), path).toBe(hint);
  }
});

test("/error/unauthorized offers sign-in; other error pages do not", async () => {
  const signIn = (html: string) => /<a[^>]*href="([^"]*)"[^>]*>Sign in<\/a>/.exec(errorSection(html))?.[1];
  const unauthorized = await (await SELF.fetch("https://tunewave.test/error/unauthorized")).text();
  expect(signIn(unauthorized)).toBe("/login");
  const german = await (await SELF.fetch("https://tunewave.test/de/error/unauthorized")).text();
  expect(errorSection(german)).toMatch(/<a[^>]*href="\/de\/login"/);
  const failure = await (await SELF.fetch("https://tunewave.test/error/serviceerror")).text();
  expect(signIn(failure)).toBeUndefined();
});

test("static build assets are cached for a year as immutable", async () => {
  const response = await SELF.fetch("https://tunewave.test/favicon.svg");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("image/svg+xml");
});

test("the home page is rendered at the edge with data from the embedded origin", async () => {
  for (const path of ["/", "/home"]) {
    const response = await SELF.fetch(`https://tunewave.test${path}`, {
      headers: { "user-agent": "Googlebot/2.1" },
    });
    expect(response.status, path).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<html lang="en-US"/);
    expect(html).toContain('<link rel="canonical" href="https://tunewave.test/"/>');
    // Ten chart rows with real catalogue titles, in the HTML itself.
    expect(html.match(/class="track-row"/g)).toHaveLength(10);
    expect(html).toMatch(/href="\/track\/\d+\/[a-z0-9-]+"/);
  }
});

test("a non-canonical language prefix is redirected to the canonical URL", async () => {
  const cases: [string, string][] = [
    ["/en/charts", "/charts"],
    ["/DE/charts?x=1", "/de/charts?x=1"],
    ["/zh-hk", "/zh-tw"],
  ];
  for (const [path, location] of cases) {
    const response = await SELF.fetch(`https://tunewave.test${path}`, { redirect: "manual" });
    expect(response.status, path).toBe(301);
    expect(response.headers.get("location"), path).toBe(location);
  }
});

test("a client navigation's data request resolves as the page itself", async () => {
  const response = await SELF.fetch("https://tunewave.test/de.data", {
    headers: { "user-agent": "Mozilla/5.0" },
  });
  expect(response.status).toBe(200);
  const body = await response.text();
  expect(body).toContain("https://tunewave.test/de");
  expect(body).not.toContain(".data");
});
