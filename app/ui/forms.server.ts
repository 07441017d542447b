import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { accountRequestHeaders } from "#edge/session.ts";
import { servicesCallPath } from "#rules/addresses.ts";
import {
  type StoredSurveyAnswer,
  type StoredVerification,
  type SurveyAnswer,
  storedSurveyAnswerSchema,
  storedVerificationSchema,
  surveyReceiptSchema,
  type VerificationRequest,
} from "#rules/forms.ts";

// What the survey and verification pages send to and read from the embedded origin
// (origin/routes/site-pages.ts), through the services proxy, on the visitor's behalf: the client's
// address goes along for the origin's rate limit.

type Context = Pick<AppLoadContext, "edge" | "services">;

function visitorCall(
  services: Context["services"],
  request: Request,
  segments: readonly string[],
  body?: unknown,
): Promise<Response> {
  const headers = accountRequestHeaders(request);
  if (body !== undefined) headers.set("content-type", "application/json");
  return services.handle(
    new Request(new URL(servicesCallPath(segments), request.url), {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    }),
  );
}

/** How a write went: stored, refused as the spec's errors say, or the service failed. */
export type WriteOutcome = "stored" | "answered" | "limited" | "failed";

function outcomeOf(status: number): WriteOutcome {
  if (status === 201) return "stored";
  if (status === 409) return "answered";
  if (status === 429) return "limited";
  return "failed";
}

/**
 * The visitor's survey answer (with the session, so that an answer sent signed in is the
 * account's): stored with the receipt that alone reads it back, or refused.
 */
export async function sendSurveyAnswer(
  { edge, services }: Context,
  request: Request,
  answer: SurveyAnswer,
): Promise<{ outcome: "stored"; receipt: string } | { outcome: Exclude<WriteOutcome, "stored"> }> {
  const response = await visitorCall(services, request, ["survey", "answers"], {
    ...answer,
    lang: edge.lang,
  });
  const outcome = outcomeOf(response.status);
  if (outcome !== "stored") {
    await response.body?.cancel();
    return { outcome };
  }
  const stored = v.safeParse(
    v.object({ receipt: surveyReceiptSchema }),
    await response.json().catch(() => null),
  );
  return stored.success ? { outcome, receipt: stored.output.receipt } : { outcome: "failed" };
}

/** The answer the browser's receipt reads back (`surveyReceiptOf` its cookie), if any. */
export async function surveyAnswerOf(
  { services }: Context,
  request: Request,
  receipt: string | undefined,
): Promise<StoredSurveyAnswer | undefined> {
  if (!receipt) return undefined;
  const response = await visitorCall(services, request, ["survey", "answers", receipt]);
  if (response.status !== 200) {
    await response.body?.cancel();
    return undefined;
  }
  return v.parse(storedSurveyAnswerSchema, await response.json());
}

export async function sendVerificationRequest(
  { edge, services }: Context,
  request: Request,
  fields: VerificationRequest,
): Promise<{ outcome: "stored"; id: string } | { outcome: "limited" | "failed" }> {
  const response = await visitorCall(services, request, ["verify", "requests"], {
    ...fields,
    lang: edge.lang,
  });
  const outcome = outcomeOf(response.status);
  if (outcome !== "stored") {
    await response.body?.cancel();
    return { outcome: outcome === "limited" ? "limited" : "failed" };
  }
  const { id } = v.parse(v.object({ id: v.string() }), await response.json());
  return { outcome, id };
}

export async function verificationRequestOf(
  { services }: Context,
  request: Request,
  id: string,
): Promise<StoredVerification | undefined> {
  const response = await visitorCall(services, request, ["verify", "requests", id]);
  if (response.status !== 200) {
    await response.body?.cancel();
    return undefined;
  }
  return v.parse(storedVerificationSchema, await response.json());
}
