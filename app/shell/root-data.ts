import { useRouteLoaderData } from "@remix-run/react";
import type { RootData } from "./root-data.server";
// One chunk with the rest of every page's shell (app/shell/every-page.ts, decision 027).
import "#app/shell/every-page.ts";

export type { RootData };

/**
 * The root route's data (app/shell/root-data.server.ts) for any component under it; undefined when the
 * root loader itself failed. Its own module so that components need not import app/root.tsx, which
 * imports them.
 */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>("root");
}
