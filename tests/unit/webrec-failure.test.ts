import { afterEach, expect, test, vi } from "vitest";
import { RecognitionStoreError, recognitionStore } from "../../origin/recognition-store";
import { matchFailure, storeRetryAfterSeconds } from "../../origin/routes/webrec";

afterEach(() => {
  vi.restoreAllMocks();
});

const cases = [
  {
    name: "a D1 error of the store is an outage",
    error: new RecognitionStoreError(new Error("D1_ERROR: no such table: recognition_postings")),
    status: 503,
    message: "Recognition store unavailable",
    retryAfter: String(storeRetryAfterSeconds),
    internal: /D1_ERROR|no such table/,
  },
  {
    name: "a stack overflow in the matcher is a bug",
    error: new RangeError("Maximum call stack size exceeded"),
    status: 500,
    message: "Recognition failed",
    retryAfter: null,
    internal: /Maximum call stack/,
  },
  {
    name: "anything thrown that is not an Error is a bug",
    error: "store said no",
    status: 500,
    message: "Recognition failed",
    retryAfter: null,
    internal: /store said no/,
  },
];

test.each(cases)("$name: $status, a fixed message, the cause only in the log", async (c) => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  const response = matchFailure(c.error);
  expect(response.status).toBe(c.status);
  expect(response.headers.get("Retry-After")).toBe(c.retryAfter);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  const text = await response.text();
  expect(JSON.parse(text)).toEqual({ error: "serviceerror", message: c.message });
  expect(text).not.toMatch(c.internal);
  const cause = c.error instanceof RecognitionStoreError ? c.error.cause : c.error;
  expect(logged).toHaveBeenCalledWith(expect.any(String), cause);
});

test("the store wraps a failing database's error, cause kept, for both of its reads", async () => {
  const failure = new Error("D1_ERROR: database is locked");
  const database = {
    prepare: () => {
      throw failure;
    },
    batch: () => Promise.reject(failure),
  } as unknown as D1Database;
  const store = recognitionStore([database]);
  for (const read of [() => store.lookup({ hashes: [1], read: "sizes" }), () => store.trackKey(0)]) {
    const error = await read().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RecognitionStoreError);
    expect((error as RecognitionStoreError).cause).toBe(failure);
  }
});
