// Reading HTTP bodies, shared by the services proxy, the worker's refusals and the embedded origin:
// bounded reads (a body is counted as it streams, never trusted by its declared length) and the
// JSON content-type rule every JSON endpoint applies.

/** Statuses whose Response must have no body. */
export const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** The request body, read up to `limit` bytes (a body of unknown length is counted as it streams). */
export async function readBody(request: Request, limit: number): Promise<ArrayBuffer | null | "too large"> {
  if (!request.body) return null;
  const declared = Number(request.headers.get("content-length"));
  if (declared > limit) {
    await request.body.cancel();
    return "too large";
  }
  const body = await readLimited(request.body, limit);
  return body === "too large" ? body : body.buffer;
}

/** A stream read to its end, unless it passes `limit` bytes (then cancelled): counted as it streams. */
export async function readLimited(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | "too large"> {
  const reader = stream.getReader();
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
  return body;
}

/** Whether a body is declared as JSON: `application/json`, with or without parameters (a charset). */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? "");
}
