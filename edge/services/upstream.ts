/**
 * The upstream of `/services`: a function from Request to Response. Either a remote origin
 * (`SERVICES_ORIGIN` set) or the embedded origin; nothing above the services proxy knows which.
 * `context` is the request's where it has one (a browser's call): the embedded origin finishes
 * work after its answer through it (an identification's event, origin/identifications.ts).
 */
export type Upstream = (request: Request, context?: UpstreamContext) => Promise<Response>;

/** What the upstream may keep running after its answer: the request's `waitUntil`. */
export type UpstreamContext = { waitUntil(promise: Promise<unknown>): void };

/** Forwards to a remote origin, keeping the path and query of the request. */
export function remoteUpstream(origin: string, fetchImpl: typeof fetch = fetch): Upstream {
  const base = new URL(origin);
  return (request) => {
    const url = new URL(request.url);
    const target = new URL(url.pathname + url.search, base);
    return fetchImpl(new Request(target, request));
  };
}
