import * as v from "valibot";
import { createServicesProxy, type ServicesProxyOptions } from "#edge/services/index.ts";
import type { Upstream } from "#edge/services/upstream.ts";
import { deferred } from "#tests/deferred.ts";

// The fakes the services proxy's tests share (tests/worker/services-*.test.ts): a fault-injecting
// upstream that records its calls, a clock the test moves, and the proxy made over them. The
// Cache API lives as long as a test file, so every test asks for URLs of its own (`uniquePath`).

// The DOM lib's CacheStorage type hides the Workers-only `default`.
export const cacheApi = (caches as CacheStorage & { default: Cache }).default;

export type Reply =
  | {
      kind: "answer";
      status?: number;
      body?: string;
      headers?: Record<string, string>;
      delayMs?: number;
      /** The answer waits for this promise: the test decides when the upstream answers. */
      gate?: Promise<void>;
    }
  | { kind: "hang" }
  | { kind: "network" }
  | { kind: "abort" };

export type UpstreamCall = { url: URL; method: string; headers: Headers; body: string };

export function answer(
  body = '{"ok":true}',
  headers: Record<string, string> = {},
  status = 200,
): Extract<Reply, { kind: "answer" }> {
  return { kind: "answer", status, body, headers };
}

export const hang: Reply = { kind: "hang" };
export const network: Reply = { kind: "network" };
export const upstreamAbort: Reply = { kind: "abort" };

/**
 * An upstream that answers the nth call with `replies[n]` (the last one repeats) and records the
 * calls; `called` settles when the first call has arrived.
 */
export function fakeUpstream(...replies: Reply[]) {
  const calls: UpstreamCall[] = [];
  const first = deferred();
  const upstream: Upstream = async (request) => {
    const reply = replies[Math.min(calls.length, replies.length - 1)] ?? answer();
    const call = {
      url: new URL(request.url),
      method: request.method,
      headers: new Headers(request.headers),
      body: "",
    };
    calls.push(call);
    first.resolve();
    call.body = await request.text();
    switch (reply.kind) {
      case "hang":
        return new Promise<Response>(() => {});
      case "network":
        throw new TypeError("Network connection lost.");
      case "abort":
        throw new DOMException("The operation was aborted", "AbortError");
      case "answer":
        if (reply.delayMs) await sleep(reply.delayMs);
        if (reply.gate) await reply.gate;
        return new Response(reply.body ?? "", { status: reply.status ?? 200, headers: reply.headers ?? {} });
    }
  };
  return { upstream, calls, called: first.promise };
}

export function testClock() {
  let now = 1_800_000_000_000;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

export function proxyWith(upstream: Upstream, options: Partial<ServicesProxyOptions> = {}) {
  return createServicesProxy({ upstream, timeoutMs: 1000, retryDelayMs: 1, ...options });
}

export function uniquePath(prefix = "/services/charts/") {
  return `${prefix}${crypto.randomUUID()}`;
}

export function browserRequest(path: string, init: RequestInit = {}) {
  return new Request(`https://tunewave.test${path}`, init);
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export const okSchema = v.object({ ok: v.boolean() });
