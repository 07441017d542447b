import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, test, vi } from "vitest";
import worker from "./built-worker";

// Decision 028: the fault matrix. A stand-in remote upstream (SERVICES_ORIGIN, reached through the
// network fetch the worker makes, as in origin-switch.test.ts) answers every call with one fault;
// the track page and a browser's /services call each get their catalogue error and status.

afterEach(() => {
  vi.restoreAllMocks();
});

const upstreamHost = "upstream-faults.test";

type Fault = () => Promise<Response>;

function dripping(chunks: number, everyMs: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (sent++ >= chunks) return controller.close();
      controller.enqueue(new TextEncoder().encode(sent === 1 ? '{"a":' : " "));
    },
  });
}

const json = (body: string, status = 200) =>
  new Response(body, {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });

const faults: {
  name: string;
  fault: Fault;
  page: { status: number; message: string };
  services: { status: number; error?: string };
}[] = [
  {
    name: "timeout",
    fault: () => new Promise<Response>(() => {}),
    page: { status: 504, message: "The page took too long to load" },
    services: { status: 504, error: "timeout" },
  },
  {
    name: "connection reset",
    fault: async () => {
      throw new TypeError("Network connection lost.");
    },
    page: { status: 502, message: "We couldn&#x27;t connect" },
    services: { status: 502, error: "network" },
  },
  {
    name: "503",
    fault: async () => json('{"error":"serviceerror"}', 503),
    page: { status: 502, message: "We encountered a problem" },
    services: { status: 503 },
  },
  {
    name: "401",
    fault: async () => json('{"error":"unauthorized"}', 401),
    page: { status: 401, message: "Please sign in to see this page" },
    services: { status: 401 },
  },
  {
    name: "456 (session ended)",
    fault: async () => json('{"error":"sessionended"}', 456),
    page: { status: 502, message: "We encountered a problem" },
    services: { status: 456 },
  },
  {
    name: "malformed JSON",
    fault: async () => json('{"key": "1", '),
    page: { status: 502, message: "We encountered a problem" },
    services: { status: 200 },
  },
  {
    name: "JSON of the wrong shape",
    fault: async () => json('{"unexpected":true}'),
    page: { status: 502, message: "Seems like we&#x27;re missing data" },
    services: { status: 200 },
  },
  {
    name: "slow drip past the timeout",
    fault: async () => new Response(dripping(50, 50), { headers: { "cache-control": "no-store" } }),
    page: { status: 504, message: "The page took too long to load" },
    services: { status: 504, error: "timeout" },
  },
  {
    name: "oversized answer (9 MiB)",
    fault: async () => json(`{"pad":"${"x".repeat(9 * 1024 * 1024)}"}`),
    page: { status: 502, message: "We encountered a problem" },
    services: { status: 502, error: "serviceerror" },
  },
];

async function ask(path: string, fault: Fault): Promise<Response> {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    return new URL(request.url).host === upstreamHost ? fault() : realFetch(input, init);
  });
  const ctx = createExecutionContext();
  // A new env object is a new isolate state: its own proxy, caches and failure memory.
  const faultyEnv = { ...env, SERVICES_ORIGIN: `https://${upstreamHost}`, SERVICES_TIMEOUT_MS: "300" };
  const response = await worker.fetch(new Request(`https://tunewave.test${path}`), faultyEnv, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return new Response(body, response);
}

describe("the fault matrix", () => {
  for (const rule of faults) {
    test(`${rule.name}: the track page answers ${rule.page.status} with its localized message`, async () => {
      const response = await ask(`/track/${crypto.getRandomValues(new Uint32Array(1))[0]}`, rule.fault);
      const html = await response.text();
      expect(response.status).toBe(rule.page.status);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(html).toContain(rule.page.message);
    });

    test(`${rule.name}: a browser's /services call answers ${rule.services.status}`, async () => {
      const id = crypto.getRandomValues(new Uint32Array(1))[0];
      const response = await ask(`/services/track/v1/en/GB/web/${id}`, rule.fault);
      expect(response.status).toBe(rule.services.status);
      if (rule.services.error) expect(await response.json()).toMatchObject({ error: rule.services.error });
    });
  }
});
