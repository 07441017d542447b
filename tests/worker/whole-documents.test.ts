import { expect, test } from "vitest";
import { browser, signIn } from "./browser-jar";

// Decision 035: every document is rendered to its end before it is sent (app/entry.server.tsx): it
// closes with </html> and holds none of React's streamed boundaries (`<div hidden id="S:…">` and
// the `$RC` script that moves one into place), anonymous pages the edge caches and signed-in ones.

function expectWhole(html: string) {
  expect(html.trimEnd().endsWith("</html>")).toBe(true);
  expect(html).not.toContain('hidden id="S:');
  expect(html).not.toContain("$RC");
  // The loader data the client router reads is in the body, the stream closed in the same script.
  const body = html.slice(html.indexOf("<body"), html.lastIndexOf("</body>"));
  expect(body).toContain("window.__remixContext.streamController.close()");
}

test.each([
  "/",
  "/charts",
  "/search?term=love",
  "/terms",
  "/track/241148261/weight-of-revenge",
  "/no-such-page",
])("%s for an anonymous visitor is whole", async (path) => {
  const response = await browser().fetch(path);
  expectWhole(await response.text());
});

test("the library for a signed-in visitor is whole", async () => {
  const who = browser();
  await signIn(who, `whole.${Date.now()}@example.com`);
  const response = await who.fetch("/myshazam");
  expect(response.status).toBe(200);
  expectWhole(await response.text());
});
