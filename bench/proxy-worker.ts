import * as v from "valibot";
import type { Upstream } from "#edge/services/index.ts";
import { createOrigin, type OriginEnv } from "#origin/index.ts";
import { measureProxy } from "./proxy.bench-worker";

/**
 * The bench's worker, run by Miniflare beside the site (scripts/site.ts): `measureProxy` needs
 * workerd's Cache API. `?upstream=origin&path=/services/…` measures the proxy in front of the
 * embedded origin (D1) on that path; without it, in front of measureProxy's in-process upstream.
 */
const querySchema = v.object({
  upstream: v.optional(v.picklist(["origin", "inprocess"]), "inprocess"),
  path: v.optional(v.pipe(v.string(), v.startsWith("/services/"))),
});

const origin = createOrigin();

export default {
  async fetch(request: Request, env: OriginEnv): Promise<Response> {
    const query = v.safeParse(querySchema, Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return new Response(v.summarize(query.issues), { status: 400 });
    const upstream: Upstream | undefined =
      query.output.upstream === "origin"
        ? async (upstreamRequest) => origin.fetch(upstreamRequest, env)
        : undefined;
    try {
      const { path } = query.output;
      if (upstream && path) {
        // A not-found answer is storable too: make sure the figure is of a real answer.
        const probe = await upstream(new Request(`https://tunewave.test${path}`));
        await probe.arrayBuffer();
        if (probe.status !== 200) return new Response(`${path} answers ${probe.status}`, { status: 500 });
      }
      return Response.json(await measureProxy({ upstream, path }));
    } catch (error) {
      return new Response(error instanceof Error ? error.message : String(error), { status: 500 });
    }
  },
};
