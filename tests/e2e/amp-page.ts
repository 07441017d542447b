import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { openPage } from "./browser";

// The AMP runtime (cdn.ampproject.org) is out of reach offline; a stand-in does the one thing of
// it the AMP pages need, drawing each amp-img at its declared size (fixed, or responsive to its
// box), and lifts the boilerplate's hiding. What a test checks is the page's own markup and CSS.
// The runtime's script is async in the head: on a long page it can run before the parser reaches
// the body, so, like the real runtime, the stand-in waits for the document.
const runtimeStandIn = `
function standIn() {
document.querySelectorAll("amp-img").forEach(function (element) {
  var width = Number(element.getAttribute("width"));
  var height = Number(element.getAttribute("height"));
  var img = document.createElement("img");
  ["src", "srcset", "sizes", "alt"].forEach(function (name) {
    if (element.hasAttribute(name)) img.setAttribute(name, element.getAttribute(name));
  });
  img.style.cssText = "width:100%;height:100%;object-fit:cover;display:block";
  if (element.getAttribute("layout") === "fixed") {
    element.style.cssText = "display:inline-block;width:" + width + "px;height:" + height + "px";
  } else {
    element.style.cssText = "display:block;aspect-ratio:" + width + "/" + height;
  }
  element.appendChild(img);
});
document.body.style.animation = "none";
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", standIn);
else standIn();
`;

/** Opens an AMP page (`url`, absolute) with the runtime's stand-in, once its pictures have loaded. */
export async function openAmp(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; errors: string[] }> {
  const opened = await openPage(browser, { viewport });
  await opened.page.route("https://cdn.ampproject.org/**", (route) =>
    route.fulfill({ contentType: "text/javascript", body: runtimeStandIn }),
  );
  const response = await opened.page.goto(url, { waitUntil: "load" });
  expect(response?.status(), url).toBe(200);
  // Pictures drawn by the stand-in load after the document; the screenshot waits for them a while.
  await opened.page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
  return opened;
}
