import type { OriginApp, OriginContext } from "#origin/env.ts";
import { cachePolicy, clientAddressOf, json, jsonBody, noStoreJson, parseParams } from "#origin/http.ts";
import { signedInAccount } from "#origin/signed-in.ts";
import {
  openRoles,
  storeSurveyAnswer,
  storeVerificationRequest,
  surveyAnswerOf,
  verificationRequestOf,
} from "#origin/site-pages.ts";
import {
  formRateWindowMs,
  surveyReceiptSchema,
  surveySubmissionSchema,
  verificationIdSchema,
  verificationSubmissionSchema,
} from "#rules/forms.ts";

// The services behind the site's own pages (decision 024): the satisfaction survey, artist
// verification requests and the open roles. What a visitor sent is theirs: `private, no-store`,
// so the site's services proxy never remembers one visitor's answer (or 404) for another.

const privateNoStore = "private, no-store";

function ownAnswer(body: unknown, status: number): Response {
  const response = noStoreJson(body, status);
  response.headers.set("Cache-Control", privateNoStore);
  return response;
}

function limited(what: string): Response {
  const response = ownAnswer({ error: "limitexceeded", message: `Too many ${what} from this client` }, 429);
  response.headers.set("Retry-After", String(formRateWindowMs / 1000));
  return response;
}

/**
 * Who sends a form: the client's address (the rate limit) and, when the session the site passed on
 * is live, the account, which the service reads itself and never takes from the body.
 */
async function senderOf(c: OriginContext) {
  const client = clientAddressOf(c);
  if (!c.req.header("cookie")) return { client, userId: null };
  const account = await signedInAccount(c);
  return { client, userId: "refused" in account ? null : account.userId };
}

export function registerSitePages(origin: OriginApp) {
  /**
   * A survey answer: 201 with its receipt, the one key that reads it back; 409 when the account
   * answered already, 429 over the client's limit.
   */
  origin.post("/survey/answers", async (c) => {
    const answer = parseParams(surveySubmissionSchema, await jsonBody(c));
    const stored = await storeSurveyAnswer(c.var.db, answer, await senderOf(c), Date.now());
    if (stored.outcome === "stored") return ownAnswer({ receipt: stored.receipt }, 201);
    if (stored.outcome === "limited") return limited("survey answers");
    return ownAnswer({ error: "invalidparam", message: "This account has already answered the survey" }, 409);
  });

  /** An answer, by the receipt only the browser that sent it holds. */
  origin.get("/survey/answers/:receipt", async (c) => {
    const receipt = parseParams(surveyReceiptSchema, c.req.param("receipt"));
    const answer = await surveyAnswerOf(c.var.db, receipt);
    if (!answer) return ownAnswer({ error: "notfound", message: "No answer with this receipt" }, 404);
    return ownAnswer(answer, 200);
  });

  /** An artist verification request: 201 with its id, or 429 over the client's limit. */
  origin.post("/verify/requests", async (c) => {
    const request = parseParams(verificationSubmissionSchema, await jsonBody(c));
    const stored = await storeVerificationRequest(c.var.db, request, await senderOf(c), Date.now());
    if (stored === "limited") return limited("verification requests");
    return ownAnswer(stored, 201);
  });

  /** A verification request, by the random id only its confirmation page knows. */
  origin.get("/verify/requests/:id", async (c) => {
    const id = parseParams(verificationIdSchema, c.req.param("id"));
    const request = await verificationRequestOf(c.var.db, id);
    if (!request) return ownAnswer({ error: "notfound", message: "No such verification request" }, 404);
    return ownAnswer(request, 200);
  });

  /** Spec 000 §2 page type `careers`: the open roles. */
  origin.get("/careers/roles", async (c) =>
    json(c, { roles: await openRoles(c.var.db) }, cachePolicy.features),
  );
}
