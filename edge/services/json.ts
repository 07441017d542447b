import * as v from "valibot";
import { SiteError } from "#rules/errors.ts";
import type { Answer } from "./cache";
import type { Outcome } from "./coalescing";
import type { RememberedFailure } from "./failure-memory";

// What a loader's `getJson` makes of an outcome: the parsed data, or the SiteError it throws.

/** The answer of a successful GET; a failure, a 4xx or 5xx, or a redirect throws its SiteError. */
export function successfulAnswer(outcome: Outcome, pathname: string): Answer {
  if ("failure" in outcome.result) throw siteErrorOf(outcome.result.failure);
  const { answer } = outcome.result;
  if (answer.status === 401) {
    throw new SiteError("unauthorized", `401 from ${pathname}`, { status: 401, body: textOf(answer) });
  }
  if (answer.status >= 400) {
    throw new SiteError("serviceerror", `${answer.status} from ${pathname}`, {
      status: answer.status,
      body: textOf(answer),
    });
  }
  if (answer.status >= 300) {
    const location = new Headers(answer.headers as [string, string][]).get("location") ?? undefined;
    throw new SiteError("redirect", `${answer.status} from ${pathname}`, {
      status: answer.status,
      args: { location },
    });
  }
  return answer;
}

/** The answer's body as JSON checked by `schema`, or the SiteError when it is not JSON or does not fit. */
export function parseAnswer<S extends v.GenericSchema>(
  answer: Answer,
  pathname: string,
  schema: S,
): { success: true; output: v.InferOutput<S> } | { success: false; error: SiteError } {
  const text = textOf(answer);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const error = new SiteError("serviceerror", `Invalid JSON from ${pathname}`, {
      status: answer.status,
      body: text,
    });
    return { success: false, error };
  }
  const parsed = v.safeParse(schema, json);
  if (parsed.success) return { success: true, output: parsed.output };
  const message = `Unexpected data from ${pathname}: ${v.summarize(parsed.issues)}`;
  return { success: false, error: new SiteError("baddata", message, { status: answer.status }) };
}

function siteErrorOf(failure: RememberedFailure): SiteError {
  const body = failure.answer ? textOf(failure.answer) : undefined;
  return new SiteError(failure.type, failure.message, {
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

function textOf(answer: Answer): string {
  return new TextDecoder().decode(answer.body);
}
