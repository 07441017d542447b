import { createContext, useContext } from "react";

/**
 * The site's own stylesheets (every page's: app/root.tsx) inside the document, one `<style>` each,
 * so the first paint waits for no stylesheet request (issue 27, Lighthouse FCP/LCP). The worker
 * reads their texts before rendering (app/entry.server.tsx); the CSP allows inline styles
 * (edge/security-headers.ts), so a cached document needs no per-response rewriting for them.
 *
 * In the browser the context is empty: the element hydrates with the text the server wrote, and
 * React never rewrites it, since its `__html` never changes there. A text the worker could not
 * read becomes an `@import` of the file, which still styles the page.
 */
export const StylesheetTextsContext = createContext<ReadonlyMap<string, string> | undefined>(undefined);

export function InlineStylesheets({ hrefs }: { hrefs: readonly string[] }) {
  const texts = useContext(StylesheetTextsContext);
  return hrefs.map((href) => (
    <style
      key={href}
      data-href={href}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own built CSS, never visitor input.
      dangerouslySetInnerHTML={{ __html: texts ? (texts.get(href) ?? `@import url("${href}");`) : "" }}
    />
  ));
}
