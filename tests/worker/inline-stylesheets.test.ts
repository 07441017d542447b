import { expect, test } from "vitest";
import { getAs } from "./site";

const browser = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36",
};

const get = getAs(browser);

const inlined = /<style data-href="(\/build\/_assets\/([a-z-]+)-[A-Z0-9]+\.css)">([\s\S]*?)<\/style>/g;

// Decision 027, part 2: the site's stylesheets and the page's own are in the document, so the first paint
// waits for no stylesheet request.
test.each([
  ["/", ["site", "search"]],
  ["/charts", ["site", "search", "charts"]],
  ["/search?term=love", ["site", "search"]],
  ["/fr/terms", ["site", "search", "pages"]],
  ["/track/241148261/weight-of-revenge", ["site", "search", "track", "connect", "recognition"]],
  ["/no-such-page", ["site", "search"]],
])("%s inlines the site's and the page's stylesheets, as served, and links none", async (path, names) => {
  const response = await get(path);
  const html = await response.text();
  const head = html.slice(0, html.indexOf("</head>"));
  const styles = [...head.matchAll(inlined)];
  expect(styles.map((style) => style[2])).toEqual(names);
  expect(html).not.toContain('rel="stylesheet"');
  for (const [, href, , text] of styles) {
    // The text is the built file itself, so the cached asset and the inline copy never differ.
    expect(text).toBe(await (await get(href ?? "")).text());
  }
  // Inline styles need no nonce: the policy allows them, so a cached document stays valid.
  expect(response.headers.get("content-security-policy")).toContain("style-src 'self' 'unsafe-inline'");
});
