import { afterEach, describe, expect, test, vi } from "vitest";
import { createOrigin, type OriginEnv } from "#origin/index.ts";
import { admission, failureOf } from "#recognizer/answers.ts";
import { RecognitionStoreError, recognitionStore } from "#recognizer/store.ts";
import { SignatureError } from "#signature/index.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the recognizer's answer to a failure: which kind, the cause only in its log", () => {
  const cases = [
    {
      name: "a D1 error of the store is an outage",
      error: new RecognitionStoreError(new Error("D1_ERROR: no such table: recognition_postings")),
      answer: { outcome: "unavailable" },
      logged: true,
    },
    {
      name: "a stack overflow in the matcher is a bug",
      error: new RangeError("Maximum call stack size exceeded"),
      answer: { outcome: "failed" },
      logged: true,
    },
    {
      name: "anything thrown that is not an Error is a bug",
      error: "store said no",
      answer: { outcome: "failed" },
      logged: true,
    },
    {
      name: "a signature over the size bound is refused as too large",
      error: new SignatureError("toolarge", "Signature longer than 30 s"),
      answer: { outcome: "refused", reason: "toolarge", message: "Signature longer than 30 s" },
      logged: false,
    },
    {
      name: "a signature denser than audio is refused as invalid",
      error: new SignatureError("toodense", "Signature denser than a recording can be"),
      answer: { outcome: "refused", reason: "invalid", message: "Signature denser than a recording can be" },
      logged: false,
    },
  ];

  test.each(cases)("$name", (c) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(failureOf(c.error)).toEqual(c.answer);
    if (c.logged) {
      const cause = c.error instanceof RecognitionStoreError ? c.error.cause : c.error;
      expect(logged).toHaveBeenCalledWith(expect.any(String), cause);
    } else {
      expect(logged).not.toHaveBeenCalled();
    }
  });
});

describe("what the match service answers for each answer of the recognizer's binding", () => {
  /** The embedded origin with a recognizer that answers (or throws) `answer`, and no limit reached. */
  async function matchWith(answer: () => Promise<unknown>): Promise<Response> {
    const env = {
      MATCH_LIMIT: { limit: async () => ({ success: true }) },
      RECOGNIZER: { match: answer, summary: answer },
      // The request's D1 session (decision 062), which none of these answers queries.
      DB: {
        withSession: () => ({
          prepare: () => {
            throw new Error("no query expected");
          },
          getBookmark: () => null,
        }),
      },
    };
    const body = JSON.stringify({ data: "AAAA", sessionId: "s-1", lang: "en", country: "us" });
    const request = new Request("https://origin.test/services/webrec/match", { method: "POST", body });
    return createOrigin().fetch(request, env as unknown as OriginEnv);
  }

  const cases = [
    { name: "busy", answer: async () => ({ outcome: "busy" }), status: 503, message: "Recognizer busy" },
    {
      name: "the store down",
      answer: async () => ({ outcome: "unavailable" }),
      status: 503,
      message: "Recognition store unavailable",
    },
    {
      name: "a bug",
      answer: async () => ({ outcome: "failed" }),
      status: 500,
      message: "Recognition failed",
    },
    {
      name: "the binding throwing (not deployed, over its limits)",
      answer: async () => {
        throw new Error("internal error; reference = 0123abcd");
      },
      status: 503,
      message: "Recognizer unavailable",
    },
    {
      name: "an answer outside the contract (another version deployed)",
      answer: async () => ({ outcome: "matched", trackKey: "one" }),
      status: 503,
      message: "Recognizer unavailable",
    },
    {
      name: "a signature refused as too large",
      answer: async () => ({ outcome: "refused", reason: "toolarge", message: "Signature longer than 30 s" }),
      status: 413,
      message: "Signature longer than 30 s",
    },
    {
      name: "a signature refused as invalid",
      answer: async () => ({ outcome: "refused", reason: "invalid", message: "Not a signature" }),
      status: 400,
      message: "Not a signature",
    },
    { name: "no match", answer: async () => ({ outcome: "nomatch" }), status: 200, message: undefined },
  ];

  test.each(cases)("$name: $status", async (c) => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await matchWith(c.answer);
    expect(response.status).toBe(c.status);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = await response.json();
    if (c.status === 200) {
      expect(body).toEqual({ matches: [] });
      return;
    }
    expect(body).toEqual({
      error: c.status === 500 || c.status === 503 ? "serviceerror" : "invalidparam",
      message: c.message,
    });
    // Worth asking again when busy or down; never for a bug or the client's own fault.
    expect(response.headers.get("Retry-After") !== null).toBe(c.status === 503);
    expect(JSON.stringify(body)).not.toMatch(/reference|internal/);
  });
});

test.each([
  { running: 1, waiting: 0 },
  { running: 2, waiting: 0 },
  { running: 2, waiting: 3 },
  { running: 6, waiting: 30 },
])(
  "the recognizer runs $running at once, $waiting more wait in order, and answers busy past them",
  async ({ running, waiting }) => {
    const matches = admission(running, waiting, 60_000);
    const started: number[] = [];
    const releases = new Map<number, () => void>();
    const held = (n: number) =>
      matches.run("busy", () => {
        started.push(n);
        return new Promise<string>((resolve) => releases.set(n, () => resolve(`matched ${n}`)));
      });
    const admitted = Array.from({ length: running + waiting }, (_, n) => held(n));
    // Past both limits: busy at once, nothing run.
    expect(await held(-1)).toBe("busy");
    expect(started).toEqual(Array.from({ length: running }, (_, n) => n));
    // Each one that ends hands its place to the one that waited longest.
    for (let n = 0; n < running + waiting; n++) {
      releases.get(n)?.();
      expect(await admitted[n]).toBe(`matched ${n}`);
      expect(started).toEqual(
        Array.from({ length: Math.min(running + n + 1, running + waiting) }, (_, m) => m),
      );
    }
    // A work that throws leaves its place too.
    await expect(matches.run("busy", async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    const again = Array.from({ length: running }, () => matches.run("busy", async () => "matched"));
    expect(await Promise.all(again)).toEqual(Array(running).fill("matched"));
  },
);

test("a match that waited its time for a place answers busy and leaves the queue", async () => {
  vi.useFakeTimers();
  try {
    const matches = admission(1, 2, 1_000);
    let release = () => {};
    const first = matches.run(
      "busy",
      () => new Promise<string>((resolve) => (release = () => resolve("first"))),
    );
    const waited = matches.run("busy", async () => "ran");
    await vi.advanceTimersByTimeAsync(999);
    const later = matches.run("busy", async () => "later");
    await vi.advanceTimersByTimeAsync(1);
    expect(await waited).toBe("busy");
    release();
    expect([await first, await later]).toEqual(["first", "later"]);
    expect(await matches.run("busy", async () => "again")).toBe("again");
  } finally {
    vi.useRealTimers();
  }
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
