import { createMiddleware } from "hono/factory";
import { resolveRequest } from "#edge/request-context.ts";
import { loadLanguages } from "#locales/index.ts";
import { defaultLanguageKey } from "#rules/languages.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";

/**
 * The request as every later step, the React renderer and the AMP renderer see it
 * (edge/request-context.ts): resolved once, here; with its language's strings and the fallback's,
 * each a module loaded the first time a request needs it (decision 061).
 */
export const resolvedRequest = createMiddleware<WorkerEnv>(async (c, next) => {
  const request = c.req.raw;
  const edge = resolveRequest(request, request.cf as { country?: string } | undefined);
  await loadLanguages([edge.lang, defaultLanguageKey]);
  c.set("edge", edge);
  await next();
});
