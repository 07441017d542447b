import { createMiddleware } from "hono/factory";
import { createNonce, withSecurityHeaders } from "#edge/security-headers.ts";
import { robotCheckOf } from "#rules/env.ts";
import { replaceAnswer, type WorkerEnv } from "#worker/pipeline.ts";

/**
 * Every page answer, React or AMP, gets the security headers (edge/security-headers.ts) with this
 * answer's nonce (`c.get("nonce")`), which the later steps put in the document's inline scripts.
 */
export const securityHeaders = createMiddleware<WorkerEnv>(async (c, next) => {
  const nonce = createNonce();
  c.set("nonce", nonce);
  await next();
  const https = new URL(c.req.url).protocol === "https:";
  const robotCheck = robotCheckOf(c.get("isolate").config) !== null;
  replaceAnswer(c, withSecurityHeaders(c.res, { nonce, https, amp: c.get("edge").isAmp, robotCheck }));
});
