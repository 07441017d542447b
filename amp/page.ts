import type { AppLoadContext } from "@remix-run/cloudflare";
import { ampPath } from "../edge/path";
import type { RequestContext } from "../edge/request-context";
import type { AmpPageContent } from "./document";
import type { Translate } from "./strings";

/** One AMP request: the same load context the Remix loaders get, the request and its clock. */
export type AmpRequest = {
  context: AppLoadContext;
  request: Request;
  url: URL;
  now: Date;
};

/** What a page renderer answers: a page, or a move to the page's one AMP address. */
export type AmpOutcome =
  | {
      kind: "page";
      content: AmpPageContent;
      /** The page's strings (its namespaces and common), for the shell's chrome as well. */
      t: Translate;
    }
  | {
      kind: "redirect";
      location: string;
      /** Default 301: the page's one address. 302 for a move that depends on the visitor. */
      status?: 301 | 302;
      /** Default: cached like a page. */
      cacheControl?: string;
    };

/**
 * An AMP page type: renders a parsed path, or answers undefined when the path names none of its
 * pages (the AMP 404). Failures are `SiteError`s, as in the page data functions.
 */
export type AmpPageRenderer = (request: AmpRequest) => Promise<AmpOutcome | undefined>;

/** The AMP address of a language-prefixed site path ("/de/track/1/a" → "/amp/de/track/1/a"). */
export function ampPathOf(localizedPath: string): string {
  return localizedPath === "/" ? "/amp" : `/amp${localizedPath}`;
}

/**
 * The AMP address of a language-free site path ("/top-200/world"), with the request's own language
 * prefix, or none when it had none (as the React routes' redirects keep `params.lang`).
 */
export function ampLocationOf(edge: Pick<RequestContext, "path">, path: string): string {
  return ampPath(edge.path.langKey ?? "en", path);
}
