import type { LinkDescriptor } from "@remix-run/cloudflare";
import { UNSAFE_RemixContext, useMatches, useRouteError } from "@remix-run/react";
import { createContext, useContext } from "react";

/**
 * A document's stylesheets inside it, one `<style data-href>` each, so that its first paint waits
 * for no stylesheet request (decision 027, part 2: Lighthouse FCP/LCP): the site's own (every page's: root's
 * `siteStylesheets`) and those of the routes the document was rendered for. The worker reads their
 * texts before rendering (app/entry.server.tsx); the CSP allows inline styles
 * (edge/security-headers.ts), so a cached document needs no per-response rewriting for them.
 *
 * In the browser the context is empty: the elements hydrate with the text the server wrote, and
 * React never rewrites it, since its `__html` never changes there. They stay for the whole visit
 * (root never unmounts them), so a page visited again by a client navigation finds its styles
 * there; a route the first document did not inline is linked as Remix links it, and Remix waits
 * for that file before showing the page. A text the worker could not read becomes an `@import`
 * of the file, which still styles the page.
 */
export const StylesheetTextsContext = createContext<ReadonlyMap<string, string> | undefined>(undefined);

/** The stylesheets the given routes link (their `links`), in order, once each. */
export function stylesheetHrefs(
  routeModules: Readonly<Record<string, { links?: () => LinkDescriptor[] } | undefined>>,
  routeIds: readonly string[],
): string[] {
  const hrefs = new Set<string>();
  for (const link of linksOf(routeModules, routeIds)) {
    if (isStylesheet(link)) hrefs.add(link.href);
  }
  return [...hrefs];
}

function linksOf(
  routeModules: Readonly<Record<string, { links?: () => LinkDescriptor[] } | undefined>>,
  routeIds: readonly string[],
): LinkDescriptor[] {
  return routeIds.flatMap((id) => routeModules[id]?.links?.() ?? []);
}

function isStylesheet(link: LinkDescriptor): link is LinkDescriptor & { rel: "stylesheet"; href: string } {
  return "rel" in link && link.rel === "stylesheet" && typeof link.href === "string";
}

/** What the server inlined, read from the document once, before hydration: the same elements then. */
let inlinedByServer: readonly string[] | undefined;
function inlinedHrefs(texts: ReadonlyMap<string, string> | undefined): readonly string[] {
  if (texts) return [...texts.keys()];
  inlinedByServer ??=
    typeof document === "undefined"
      ? []
      : [...document.querySelectorAll<HTMLStyleElement>("head > style[data-href]")].map(
          (style) => style.dataset.href ?? "",
        );
  return inlinedByServer;
}

/** The document's `<head>` styles and links: Remix's `<Links />`, less the stylesheets inlined. */
export function DocumentStylesheets() {
  const texts = useContext(StylesheetTextsContext);
  const remix = useContext(UNSAFE_RemixContext);
  const matches = useMatches();
  // Rendered in root's layout: an error there is root's boundary drawing the page, and the routes
  // under it are not on the page (Remix's `<Links />` drops their links too). No error reads as
  // null in the browser and undefined on the server.
  const routeIds = useRouteError() == null ? matches.map((match) => match.id) : ["root"];
  const inlined = inlinedHrefs(texts);
  const links = linksOf(remix?.routeModules ?? {}, routeIds).filter(
    (link) => !(isStylesheet(link) && inlined.includes(link.href)),
  );
  const keyed = new Map(links.map((link) => [JSON.stringify(link), link]));
  return (
    <>
      {inlined.map((href) => (
        <style
          key={href}
          data-href={href}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own built CSS, never visitor input.
          dangerouslySetInnerHTML={{ __html: texts ? (texts.get(href) ?? `@import url("${href}");`) : "" }}
        />
      ))}
      {[...keyed].map(([key, link]) => (
        <link key={key} {...(link as React.LinkHTMLAttributes<HTMLLinkElement>)} />
      ))}
    </>
  );
}
