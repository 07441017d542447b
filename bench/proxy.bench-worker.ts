import type { Upstream } from "#edge/services/index.ts";
import { createServicesProxy } from "#edge/services/index.ts";

/**
 * The added latency of the services proxy next to a direct upstream call, measured inside workerd
 * (it needs the Cache API). workerd's clock moves in whole milliseconds (and performance.now()
 * does not move across Cache API calls), so each sample times with Date.now() a batch of calls sized
 * to last about `sampleMs`, and a figure is the per-call mean of a batch. Cache API calls count as
 * subrequests (1000 per request), so that figure takes at most `maxCacheApiCalls` of them.
 */

export type Percentiles = { p50: number; p99: number };

export type ProxyMeasurements = {
  memoryHitMs: Percentiles;
  cacheApiHitMs: Percentiles;
  directUpstreamMs: Percentiles;
  coalescedUpstreamCalls: number;
};

export type MeasureProxyOptions = {
  /** Measured directly and behind the proxy. Default: an in-process upstream answering ~4 KB of JSON. */
  upstream?: Upstream;
  /** A path the upstream answers with a storable 200. Default `/services/charts/bench`. */
  path?: string;
  /** Samples per figure. Default 50. */
  samples?: number;
  /** About how long one sample lasts, in ms. Default 20. */
  sampleMs?: number;
  /** Most Cache API reads the Cache API figure makes. Default 600. */
  maxCacheApiCalls?: number;
};

export async function measureProxy(options: MeasureProxyOptions = {}): Promise<ProxyMeasurements> {
  const upstream = options.upstream ?? inProcessUpstream();
  const samples = options.samples ?? 50;
  const sampleMs = options.sampleMs ?? 20;
  const maxCacheApiCalls = options.maxCacheApiCalls ?? 600;
  const path = options.path ?? "/services/charts/bench";
  // A URL of its own per run, so copies from an earlier run are not measured.
  const urlOf = (name: string) =>
    `https://tunewave.test${path}${path.includes("?") ? "&" : "?"}bench=${name}-${crypto.randomUUID()}`;

  const direct = urlOf("direct");
  const directUpstreamMs = await timed(samples, sampleMs, Number.POSITIVE_INFINITY, async () => {
    await (await upstream(new Request(direct))).arrayBuffer();
  });

  const inMemory = createServicesProxy({ upstream, timeoutMs: 10_000, cache: null });
  const memoryHitMs = await timed(
    samples,
    sampleMs,
    Number.POSITIVE_INFINITY,
    await hitter(inMemory.handle, urlOf("memory")),
  );

  const cacheApiOnly = createServicesProxy({ upstream, timeoutMs: 10_000, memory: { maxEntries: 0 } });
  const cacheApiHit = await hitter(cacheApiOnly.handle, urlOf("cacheapi"));
  const cacheApiHitMs = await timed(samples, sampleMs, maxCacheApiCalls, cacheApiHit);

  let calls = 0;
  const counted = createServicesProxy({
    upstream: (request) => {
      calls += 1;
      return upstream(request);
    },
    timeoutMs: 10_000,
    cache: null,
  });
  const coalesced = urlOf("coalesced");
  await Promise.all(
    Array.from({ length: 100 }, async () => (await counted.handle(new Request(coalesced))).arrayBuffer()),
  );

  return { memoryHitMs, cacheApiHitMs, directUpstreamMs, coalescedUpstreamCalls: calls };
}

/** A call that must be a cache hit once the first request has stored the answer. */
async function hitter(handle: (request: Request) => Promise<Response>, url: string) {
  await (await handle(new Request(url))).arrayBuffer();
  const check = await handle(new Request(url));
  await check.arrayBuffer();
  if (check.headers.get("x-cache") !== "hit") {
    throw new Error(
      `${url} is not stored by the proxy (x-cache ${check.headers.get("x-cache")}): not measurable`,
    );
  }
  return async () => {
    await (await handle(new Request(url))).arrayBuffer();
  };
}

async function timed(
  samples: number,
  sampleMs: number,
  maxCalls: number,
  call: () => Promise<void>,
): Promise<Percentiles> {
  // The first pass warms the code up; the second sizes the batch.
  let batch = 0;
  for (let pass = 0; pass < 2; pass++) {
    batch = 0;
    const calibration = Date.now();
    while (Date.now() - calibration < sampleMs && batch < 100_000) {
      await call();
      batch += 1;
    }
  }
  const runs = Math.max(1, Math.min(samples, Math.floor((maxCalls - 2 * batch) / batch)));
  const perCall: number[] = [];
  for (let sample = 0; sample < runs; sample++) {
    const started = Date.now();
    for (let index = 0; index < batch; index++) await call();
    perCall.push((Date.now() - started) / batch);
  }
  perCall.sort((a, b) => a - b);
  const at = (quantile: number) =>
    Number((perCall[Math.floor(quantile * (perCall.length - 1))] ?? 0).toFixed(4));
  return { p50: at(0.5), p99: at(0.99) };
}

/** A chart-sized JSON answer built per call, as a small origin would. */
function inProcessUpstream(): Upstream {
  const tracks = Array.from({ length: 40 }, (_, index) => ({
    id: String(100_000 + index),
    title: `Track ${index}`,
    artist: `Artist ${index % 7}`,
  }));
  return async () =>
    Response.json({ chart: "bench", tracks }, { headers: { "cache-control": "public, max-age=300" } });
}
