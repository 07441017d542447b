/**
 * The upstream of `/services`: a function from Request to Response. Either a remote origin
 * (`SERVICES_ORIGIN` set) or the embedded origin; nothing above the services proxy knows which.
 */
export type Upstream = (request: Request) => Promise<Response>;

/** Forwards to a remote origin, keeping the path and query of the request. */
export function remoteUpstream(origin: string, fetchImpl: typeof fetch = fetch): Upstream {
  const base = new URL(origin);
  return (request) => {
    const url = new URL(request.url);
    const target = new URL(url.pathname + url.search, base);
    return fetchImpl(new Request(target, request));
  };
}
