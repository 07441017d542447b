import { createMiddleware } from "hono/factory";
import { createServicesProxy, remoteUpstream, type Upstream } from "#edge/services/index.ts";
import type { OriginEnv } from "#origin/index.ts";
import { type Env, readConfig } from "#rules/env.ts";
import { fnv1a32 } from "#rules/feature-flags.ts";
import { embeddedOrigin } from "#worker/embedded-origin.ts";
import type { Isolate, WorkerEnv } from "#worker/pipeline.ts";
import { buildVersion } from "#worker/remix.ts";

let isolate: Isolate | undefined;

function isolateFor(env: Env): Isolate {
  if (isolate?.env !== env) {
    const config = readConfig(env);
    const upstream: Upstream = config.SERVICES_ORIGIN
      ? remoteUpstream(config.SERVICES_ORIGIN)
      : // The origin's routes finish work after their answer through the request's waitUntil;
        // without one (a loader's call) they await it (origin/identifications.ts).
        // readConfig refused an environment without RECOGNIZER when SERVICES_ORIGIN is empty.
        (request, context) => embeddedOrigin.fetch(request, env as OriginEnv, context);
    isolate = {
      env,
      config,
      proxy: createServicesProxy({
        upstream,
        timeoutMs: config.SERVICES_TIMEOUT_MS,
        // The embedded origin's answers are this build's: a copy another build's origin made (another
        // shape, another catalogue) is never read. A remote upstream's do not change with the site.
        ...(config.SERVICES_ORIGIN
          ? {}
          : { cacheKeyBase: `https://${buildVersion.replace(/[^a-z0-9-]/gi, "")}.services.internal` }),
      }),
      version: `${buildVersion}-${fnv1a32(JSON.stringify(config)).toString(36)}`,
    };
  }
  return isolate;
}

/** The isolate's environment and services proxy (`c.get("isolate")`), made at the first request with an env. */
export const isolateStep = createMiddleware<WorkerEnv>(async (c, next) => {
  c.set("isolate", isolateFor(c.env));
  await next();
});
