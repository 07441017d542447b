import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import * as v from "valibot";
import { afterEach, expect, test, vi } from "vitest";
import { createOrigin } from "#origin/index.ts";
import { chartLocationsSchema } from "#rules/schemas/charts.ts";
import { trackSchema } from "#rules/schemas/track.ts";
import worker from "./built-worker";

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * SERVICES_ORIGIN set: the worker's /services answers come from a remote origin. The "remote" here
 * is a second, separate instance of the origin app reached through the network fetch the worker
 * makes; it stamps its answers so the test can tell which origin answered.
 */
test("with SERVICES_ORIGIN set the worker talks to the remote origin, not the embedded one", async () => {
  const remote = createOrigin();
  const seen: string[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).host !== "origin-two.example") return realFetch(input, init);
    seen.push(request.url);
    const answer = await remote.fetch(request, env);
    const stamped = new Response(answer.body, answer);
    stamped.headers.set("X-Origin", "two");
    return stamped;
  });
  const { results } = await env.DB.prepare("SELECT key FROM tracks ORDER BY key LIMIT 2").all<{
    key: number;
  }>();
  const [key, otherKey] = results.map((r) => r.key);
  // Two different tracks: the services proxy caches answers by URL, whichever origin gave them.
  const path = `/services/track/v1/en/GB/web/${key}`;
  const otherPath = `/services/track/v1/en/GB/web/${otherKey}`;

  const ctx = createExecutionContext();
  const remoteAnswer = await worker.fetch(
    new Request(`https://example.com${path}`),
    { ...env, SERVICES_ORIGIN: "https://origin-two.example" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(remoteAnswer.status).toBe(200);
  expect(remoteAnswer.headers.get("X-Origin")).toBe("two");
  expect(seen).toEqual([`https://origin-two.example${path}`]);
  expect(v.parse(trackSchema, await remoteAnswer.json()).key).toBe(String(key));

  const embeddedCtx = createExecutionContext();
  const embeddedAnswer = await worker.fetch(
    new Request(`https://example.com${otherPath}`),
    { ...env, SERVICES_ORIGIN: "" },
    embeddedCtx,
  );
  await waitOnExecutionContext(embeddedCtx);
  expect(embeddedAnswer.status).toBe(200);
  expect(embeddedAnswer.headers.get("X-Origin")).toBeNull();
  expect(v.parse(trackSchema, await embeddedAnswer.json()).key).toBe(String(otherKey));
  expect(seen).toHaveLength(1);
});

test("without SERVICES_ORIGIN the worker answers /services from the embedded origin", async () => {
  const response = await SELF.fetch("https://example.com/services/charts/locations");
  expect(response.status).toBe(200);
  const locations = v.parse(chartLocationsSchema, await response.json());
  const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM countries").first<{ n: number }>()) ?? {
    n: 0,
  };
  expect(locations.countries).toHaveLength(n);
});
