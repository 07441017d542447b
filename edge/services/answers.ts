import { statusOfError } from "#rules/errors.ts";
import { nullBodyStatuses } from "#rules/http-body.ts";
import type { Outcome } from "./coalescing";
import type { RememberedFailure } from "./failure-memory";

// What the proxy answers a browser: the upstream's answer or a JSON error, with `x-cache`,
// `Server-Timing` and, for a stored copy, its age.

export function responseOf(outcome: Outcome, method: string, started: number, now: number): Response {
  const { result } = outcome;
  const answer = "answer" in result ? result.answer : result.failure.answer;
  if (!answer) {
    const { failure } = result as { failure: RememberedFailure };
    return errorResponse(failure, statusOfError(failure.type, failure.status), started, outcome);
  }
  const headers = new Headers(answer.headers as [string, string][]);
  if (outcome.storedAt !== undefined && (outcome.source === "hit" || outcome.source === "stale")) {
    const upstreamAge = Number(headers.get("age")) || 0;
    headers.set("age", String(upstreamAge + Math.max(0, Math.floor((now - outcome.storedAt) / 1000))));
  }
  decorate(headers, outcome, started);
  const body = method === "HEAD" || nullBodyStatuses.has(answer.status) ? null : answer.body;
  return new Response(body, { status: answer.status, headers });
}

export function errorResponse(
  failure: Pick<RememberedFailure, "type" | "message">,
  status: number,
  started: number,
  outcome: Omit<Outcome, "result"> = { source: "miss" },
): Response {
  const headers = new Headers({ "content-type": "application/json", "cache-control": "no-store" });
  if (outcome.retryAfterMs !== undefined)
    headers.set("retry-after", String(Math.ceil(outcome.retryAfterMs / 1000)));
  decorate(headers, outcome, started);
  return new Response(JSON.stringify({ error: failure.type, message: failure.message }), {
    status,
    headers,
  });
}

// Durations use Date.now(): in workerd, performance.now() does not move across Cache API calls.
function decorate(headers: Headers, outcome: Omit<Outcome, "result">, started: number) {
  headers.set("x-cache", outcome.source);
  const description = outcome.tier ? `${outcome.source} ${outcome.tier}` : outcome.source;
  headers.append("server-timing", `proxy;desc="${description}";dur=${Date.now() - started}`);
  if (outcome.upstreamMs !== undefined) headers.append("server-timing", `upstream;dur=${outcome.upstreamMs}`);
}
