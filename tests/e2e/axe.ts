import axe from "axe-core";
import type { Page } from "playwright-core";

/**
 * axe-core's WCAG 2.1 A and AA rules on the page as it is now, or only within `selector`: one line
 * per rule violated, its id and the nodes that break it.
 */
export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  // Through DevTools, not a script tag: the page's CSP rightly refuses inline scripts.
  await page.evaluate(axe.source);
  return page.evaluate(async (selector) => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(selector ?? document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
  }, selector);
}
