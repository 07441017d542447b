import * as limits from "./services-constants";

// The HTTP plumbing of the proxy: which headers cross it, what a no-cache request is, request bodies.

/** Hop-by-hop headers (RFC 9110 §7.6.1), never forwarded in either direction. */
const hopByHopHeaders = [
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/** Statuses whose Response must have no body. */
export const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

export function asksNoCache(headers: Headers): boolean {
  const control = (headers.get("cache-control") ?? "").toLowerCase();
  return /\bno-cache\b|\bno-store\b/.test(control) || /\bno-cache\b/i.test(headers.get("pragma") ?? "");
}

/** Request headers sent upstream: no hop-by-hop ones, no proxy controls, no length (recomputed). */
export function forwardedHeaders(incoming: Headers): Headers {
  const headers = new Headers(incoming);
  for (const name of connectionListed(incoming)) headers.delete(name);
  for (const name of [...hopByHopHeaders, "host", "content-length", limits.retryHeader]) headers.delete(name);
  return headers;
}

/** Upstream headers kept with an answer: the body is held decoded, so no encoding or length. */
export function answerHeadersOf(incoming: Headers): [string, string][] {
  const dropped = new Set([
    ...hopByHopHeaders,
    ...connectionListed(incoming),
    "content-length",
    "content-encoding",
  ]);
  return [...incoming].filter(([name]) => !dropped.has(name));
}

function connectionListed(headers: Headers): string[] {
  return (headers.get("connection") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
}

/** The request body, read up to `limit` bytes (a body of unknown length is counted as it streams). */
export async function readBody(request: Request, limit: number): Promise<ArrayBuffer | null | "too large"> {
  if (!request.body) return null;
  const declared = Number(request.headers.get("content-length"));
  if (declared > limit) {
    await request.body.cancel();
    return "too large";
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return "too large";
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body.buffer;
}

/** Whether a path is one of the upstream's, by the allowed prefixes. */
export function isAllowedPath(pathname: string, allowedPrefixes: readonly string[]): boolean {
  // Encoded separators could reach another path once an upstream decodes them.
  if (/%2f|%5c|\\/i.test(pathname)) return false;
  return allowedPrefixes.some((prefix) =>
    prefix.endsWith("/")
      ? pathname.startsWith(prefix)
      : pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}
