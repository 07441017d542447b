import { createMiddleware } from "hono/factory";
import { resolveSession } from "#edge/session.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";

/** The visitor's session (edge/session.ts), for a page rendered for this request alone. */
export const session = createMiddleware<WorkerEnv>(async (c, next) => {
  c.set("session", await resolveSession(c.get("isolate").proxy, c.req.raw));
  await next();
});
