import { guidSchema } from "../../edge/cookies";
import {
  formRateWindowMs,
  surveySubmissionSchema,
  verificationIdSchema,
  verificationSubmissionSchema,
} from "../../edge/forms";
import type { OriginApp } from "../env";
import { cachePolicy, json, jsonBody, noStoreJson, parseParams } from "../http";
import {
  openRoles,
  storeSurveyAnswer,
  storeVerificationRequest,
  surveyAnswerOf,
  verificationRequestOf,
} from "../site-pages";

// The services behind the site's own pages (issue 24): the satisfaction survey, artist
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

/** The client's address, which the site passes on from the visitor's request. */
const clientOf = (header: (name: string) => string | undefined) =>
  header("cf-connecting-ip") ?? header("x-real-ip") ?? "unknown";

export function registerSitePages(origin: OriginApp) {
  /** A survey answer: 201, or 409 when the visitor answered already, 429 over the client's limit. */
  origin.post("/survey/answers", async (c) => {
    const answer = parseParams(surveySubmissionSchema, await jsonBody(c));
    const outcome = await storeSurveyAnswer(
      c.env.DB,
      answer,
      clientOf((n) => c.req.header(n)),
      Date.now(),
    );
    if (outcome === "answered") {
      return ownAnswer(
        { error: "invalidparam", message: "This visitor has already answered the survey" },
        409,
      );
    }
    if (outcome === "limited") return limited("survey answers");
    return ownAnswer({ stored: true }, 201);
  });

  /** The visitor's own answer (the visitor id is the browser's random webId). */
  origin.get("/survey/answers/:visitor", async (c) => {
    const visitor = parseParams(guidSchema, c.req.param("visitor"));
    const answer = await surveyAnswerOf(c.env.DB, visitor);
    if (!answer) return ownAnswer({ error: "notfound", message: "No answer from this visitor" }, 404);
    return ownAnswer(answer, 200);
  });

  /** An artist verification request: 201 with its id, or 429 over the client's limit. */
  origin.post("/verify/requests", async (c) => {
    const request = parseParams(verificationSubmissionSchema, await jsonBody(c));
    const stored = await storeVerificationRequest(
      c.env.DB,
      request,
      clientOf((n) => c.req.header(n)),
      Date.now(),
    );
    if (stored === "limited") return limited("verification requests");
    return ownAnswer(stored, 201);
  });

  /** A verification request, by the random id only its confirmation page knows. */
  origin.get("/verify/requests/:id", async (c) => {
    const id = parseParams(verificationIdSchema, c.req.param("id"));
    const request = await verificationRequestOf(c.env.DB, id);
    if (!request) return ownAnswer({ error: "notfound", message: "No such verification request" }, 404);
    return ownAnswer(request, 200);
  });

  /** Spec 000 §2 page type `careers`: the open roles. */
  origin.get("/careers/roles", async (c) =>
    json(c, { roles: await openRoles(c.env.DB) }, cachePolicy.features),
  );
}
