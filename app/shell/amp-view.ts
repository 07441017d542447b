import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "@remix-run/router";
import type { ComponentType } from "react";
import type { PageMeta } from "./meta";

/**
 * A page's AMP form. A route module that has one exports it as `ampView`: the page's own view,
 * which amp/render.tsx renders to AMP markup from the same loader data the React page gets (the
 * loader answers the page's `meta`, which both heads are built from). Nothing else of the page
 * exists twice: the route, its loader (parsing, flags, loading, the canonical redirect) and the
 * view are the React page's.
 */
export type AmpView<Loader extends (...args: never[]) => unknown> = ComponentType<{
  data: LoaderData<Loader>;
}>;

/** What a loader's answer holds: a loader that sets headers (`data(value, init)`) answers `value`. */
type LoaderData<Loader extends (...args: never[]) => unknown> =
  Awaited<ReturnType<Loader>> extends DataWithResponseInit<infer Value> ? Value : Awaited<ReturnType<Loader>>;

/** What every page with an AMP form answers from its loader. */
export type AmpPageData = { meta: PageMeta };
