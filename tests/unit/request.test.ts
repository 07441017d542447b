import * as v from "valibot";
import { afterEach, describe, expect, test, vi } from "vitest";
import { defaultRequestTimeoutMs, getJson, postJson } from "#app/shell/browser/request.ts";
import { SiteError } from "#rules/errors.ts";

afterEach(() => {
  vi.useRealTimers();
});

type Call = { url: string; init: RequestInit };

function answering(response: () => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    return response();
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

/** A fetch that never answers but honours its signal, as the browser's does. */
function hanging() {
  const fetch = (_input: RequestInfo | URL, init: RequestInit = {}) =>
    new Promise<Response>((_resolve, reject) => {
      init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
  return fetch as typeof globalThis.fetch;
}

async function failureOf(promise: Promise<unknown>): Promise<SiteError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SiteError) return error;
    throw error;
  }
  throw new Error("expected a failure");
}

const item = v.object({ id: v.string() });

test("getJson sends a same-origin GET and parses the answer", async () => {
  const server = answering(() => Response.json({ id: "1", extra: true }));
  expect(await getJson("/services/x", item, { fetch: server.fetch })).toEqual({ id: "1" });
  expect(server.calls).toHaveLength(1);
  expect(server.calls[0]?.url).toBe("/services/x");
  expect(server.calls[0]?.init).toMatchObject({ method: "GET", credentials: "same-origin", body: undefined });
});

test.each([
  { name: "an object is sent as JSON", body: { a: 1 }, sent: '{"a":1}' },
  { name: "a string is sent as it is", body: '{"already":"json"}', sent: '{"already":"json"}' },
  { name: "a list is sent as JSON", body: [1, 2], sent: "[1,2]" },
])("postJson sends its body: $name", async ({ body, sent }) => {
  const server = answering(() => new Response(null, { status: 204 }));
  expect(await postJson("/services/y", body, v.null(), { fetch: server.fetch })).toBeNull();
  expect(server.calls[0]?.init).toMatchObject({ method: "POST", credentials: "same-origin", body: sent });
  expect(new Headers(server.calls[0]?.init.headers).get("content-type")).toBe("application/json");
});

test("postJson sends POST with a JSON body (the recognition calls, spec 002 §7)", async () => {
  const server = answering(() => Response.json({ id: "m" }));
  expect(await postJson("/services/webrec/match", { data: "x" }, item, { fetch: server.fetch })).toEqual({
    id: "m",
  });
  expect(server.calls[0]?.init).toMatchObject({
    method: "POST",
    credentials: "same-origin",
    body: '{"data":"x"}',
  });
});

const helpers = [
  { name: "getJson", call: getJson },
  {
    name: "postJson",
    call: (url: string, schema: v.GenericSchema, options: object) => postJson(url, {}, schema, options),
  },
];

// Spec 000 §7 "A 2xx or 3xx status is success" for every helper: one rule.
describe.each(helpers)("$name", ({ call }) => {
  test.each([200, 201, 299, 304, 399])("status %i is success", async (status) => {
    const body = status === 304 ? null : JSON.stringify({ id: "ok" });
    const server = answering(() => new Response(body, { status }));
    const schema = status === 304 ? v.null() : item;
    await expect(call("/s", schema, { fetch: server.fetch })).resolves.toBeDefined();
  });

  test.each([
    { status: 401, type: "unauthorized" },
    { status: 500, type: "serviceerror" },
  ])("status $status fails with $type", async ({ status, type }) => {
    const server = answering(() => new Response("no", { status }));
    expect((await failureOf(call("/s", item, { fetch: server.fetch }))).type).toBe(type);
  });
});

test.each([
  { status: 401, type: "unauthorized" },
  { status: 400, type: "serviceerror" },
  { status: 404, type: "serviceerror" },
  { status: 500, type: "serviceerror" },
  { status: 503, type: "serviceerror" },
])("status $status fails with $type carrying status and body", async ({ status, type }) => {
  const server = answering(() => new Response("upstream said no", { status }));
  const error = await failureOf(getJson("/s", item, { fetch: server.fetch }));
  expect(error.type).toBe(type);
  expect(error.status).toBe(status);
  expect(error.body).toBe("upstream said no");
});

test("an answer that is not JSON fails with serviceerror", async () => {
  const server = answering(() => new Response("<html>", { status: 200 }));
  const error = await failureOf(getJson("/s", item, { fetch: server.fetch }));
  expect(error.type).toBe("serviceerror");
  expect(error.status).toBe(200);
});

test("JSON of the wrong shape fails with baddata", async () => {
  const server = answering(() => Response.json({ id: 5 }));
  expect((await failureOf(getJson("/s", item, { fetch: server.fetch }))).type).toBe("baddata");
});

test("a network failure fails with network", async () => {
  const fetch = (async () => {
    throw new TypeError("Failed to fetch");
  }) as typeof globalThis.fetch;
  expect((await failureOf(getJson("/s", item, { fetch }))).type).toBe("network");
});

test("no answer within the timeout fails with timeout", async () => {
  vi.useFakeTimers();
  const pending = failureOf(getJson("/s", item, { fetch: hanging(), timeoutMs: 3000 }));
  await vi.advanceTimersByTimeAsync(3000);
  expect((await pending).type).toBe("timeout");
});

test("the default timeout applies when none is given", async () => {
  vi.useFakeTimers();
  let settled = false;
  const pending = failureOf(getJson("/s", item, { fetch: hanging() })).finally(() => {
    settled = true;
  });
  await vi.advanceTimersByTimeAsync(defaultRequestTimeoutMs - 1);
  expect(settled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect((await pending).type).toBe("timeout");
});

test("the caller's abort fails with abort", async () => {
  const controller = new AbortController();
  const pending = failureOf(getJson("/s", item, { fetch: hanging(), signal: controller.signal }));
  controller.abort();
  expect((await pending).type).toBe("abort");
});

test("an already aborted signal fails with abort without waiting", async () => {
  const controller = new AbortController();
  controller.abort();
  expect((await failureOf(getJson("/s", item, { fetch: hanging(), signal: controller.signal }))).type).toBe(
    "abort",
  );
});

test("a timeout while the body is read is still a timeout", async () => {
  vi.useFakeTimers();
  const fetch = (async (_input: RequestInfo | URL, init: RequestInit = {}) => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":'));
        init.signal?.addEventListener("abort", () =>
          controller.error(new DOMException("aborted", "AbortError")),
        );
      },
    });
    return new Response(body, { status: 200 });
  }) as typeof globalThis.fetch;
  const pending = failureOf(getJson("/s", item, { fetch, timeoutMs: 100 }));
  await vi.advanceTimersByTimeAsync(100);
  expect((await pending).type).toBe("timeout");
});
