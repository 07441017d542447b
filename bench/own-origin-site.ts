import { type Snapshot, startSite } from "#scripts/site.ts";
import { freePort } from "./free-port";

/**
 * `startSite` on a free port whose origin is the site's SITE_ORIGIN: the site's own origin is
 * configuration (decision 030), and the bench's signed-in visitor's sign-in link must point back to it.
 */
export async function startOwnOriginSite(
  snapshot: Snapshot,
  options: Omit<NonNullable<Parameters<typeof startSite>[1]>, "port"> = {},
): ReturnType<typeof startSite> {
  const port = await freePort();
  return startSite(snapshot, {
    ...options,
    port,
    vars: { SITE_ORIGIN: `http://127.0.0.1:${port}`, ...options.vars },
  });
}
