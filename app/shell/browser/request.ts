import * as v from "valibot";
import { SiteError } from "#rules/errors.ts";

/**
 * The generic request helpers of spec 000 §7: same-origin credentials, JSON both ways, 2xx and 3xx
 * are success, failures mapped to the catalogue of §8. The spec's helper named "post" sends PUT;
 * no call of ours uses it, so it is not here (no code only tests use: decisions 008 and 025). The recognition
 * calls are real POSTs (002 §7): `postJson`, with the same rule.
 */

/** Spec 000 §9: "Request timeout comes from configuration (value not shown)." Ours, until configured. */
export const defaultRequestTimeoutMs = 10_000;

export type RequestOptions = {
  /** Give up after this many ms with a `timeout` error. Default `defaultRequestTimeoutMs`. */
  timeoutMs?: number;
  /** The caller's cancel: aborting it fails the request with an `abort` error. */
  signal?: AbortSignal;
  /** The fetch to use. Default: the global fetch at call time. */
  fetch?: typeof fetch;
};

/** GET `url` and parse its JSON answer with `schema` (a mismatch is `baddata`). */
export async function getJson<const S extends v.GenericSchema>(
  url: string,
  schema: S,
  options: RequestOptions = {},
): Promise<v.InferOutput<S>> {
  return requestJson("GET", url, undefined, schema, options);
}

/**
 * POST `body` to `url` (JSON-encoded unless already a string, which is taken as JSON already
 * serialised) and parse the answer with `schema`; an empty answer reads as `null` (spec 002 §7
 * "POST /services/webrec/match, JSON").
 */
export async function postJson<const S extends v.GenericSchema>(
  url: string,
  body: unknown,
  schema: S,
  options: RequestOptions = {},
): Promise<v.InferOutput<S>> {
  return requestJson("POST", url, typeof body === "string" ? body : JSON.stringify(body), schema, options);
}

async function requestJson<const S extends v.GenericSchema>(
  method: "GET" | "PUT" | "POST",
  url: string,
  body: string | undefined,
  schema: S,
  options: RequestOptions,
): Promise<v.InferOutput<S>> {
  if (options.signal?.aborted) throw new SiteError("abort", `${method} ${url} was aborted`);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? defaultRequestTimeoutMs;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });

  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";

  let status: number;
  let text: string;
  try {
    const response = await fetchImpl(url, {
      method,
      body,
      headers,
      credentials: "same-origin",
      signal: controller.signal,
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (timedOut) throw new SiteError("timeout", `${method} ${url} timed out after ${timeoutMs} ms`);
    if (controller.signal.aborted) throw new SiteError("abort", `${method} ${url} was aborted`);
    throw new SiteError(
      "network",
      `${method} ${url} failed: ${error instanceof Error ? error.message : error}`,
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCallerAbort);
  }

  if (status === 401) throw new SiteError("unauthorized", `${method} ${url}: 401`, { status, body: text });
  if (status < 200 || status >= 400) {
    throw new SiteError("serviceerror", `${method} ${url}: ${status}`, { status, body: text });
  }
  let json: unknown = null;
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      throw new SiteError("serviceerror", `${method} ${url}: the answer is not JSON`, { status, body: text });
    }
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    throw new SiteError("baddata", `${method} ${url}: unexpected answer: ${v.summarize(parsed.issues)}`, {
      status,
    });
  }
  return parsed.output;
}

/** A failed request's answer (`SiteError.body`) read as JSON; undefined when it is none or not JSON. */
export function safeJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
