/**
 * `npm run bench:isolation`: what the pages feel while the recognizer works (decision 052). One
 * site, the recognition store loaded, on the build in build/ (after `npm run build`):
 * - the p99 of a static asset and of a cached page, idle and while `attackers` clients each send
 *   the costliest signature the bounds allow (bench/dense-signatures.ts, 30 s of random peaks) one
 *   after the other: the loaded p99 over the idle one, measured side by side;
 * - matches through the site, one at a time: the published probes (catalogue songs, each a match),
 *   real audio in no recording (noise) and the worst case, their wall time at p50 and the probes'
 *   accuracy.
 * Every request has a client address of its own (bench/client-addresses.ts): the match limit counts
 * by address.
 *
 *   npm run bench:isolation [-- --attackers=N --requests=N]
 */
import { performance } from "node:perf_hooks";
import { noise, seededRandom } from "#origin/catalog/audio-degrade.ts";
import { removeSnapshot, snapshotSite } from "#scripts/site.ts";
import { computeSignature, encodeSignatureBase64 } from "#signature/index.ts";
import { atMost, formatTable, type Row } from "./budgets";
import { benchClientAddress } from "./client-addresses";
import { densest, MAX_FRAMES, randomPeakBin } from "./dense-signatures";
import { probeBodies, type Sent, send } from "./memory";
import { startOwnOriginSite } from "./own-origin-site";
import { quantile } from "./stats";

/** How much slower a page may answer at p99 while the worst signatures are matched. */
const loadedP99Budget = 2;
const staticAsset = "/favicon.svg";
/** A page of the edge's HTML cache (the anonymous home page), warmed before it is timed. */
const cachedPage = "/";
/** Requests a p99 is read from: one at a time, so each is the latency a person sees. */
const timedRequests = 400;

const attackers = Number(process.argv.find((arg) => arg.startsWith("--attackers="))?.split("=")[1] ?? 4);

let address = 0;
/** A request from a client address of its own, JSON when it has a body. */
function from(sent: Sent): Sent {
  address += 1;
  return {
    ...sent,
    headers: {
      "cf-connecting-ip": benchClientAddress(address),
      ...(sent.body ? { "content-type": "application/json" } : {}),
      ...sent.headers,
    },
  };
}

function matchRequest(data: string): Sent {
  return {
    path: "/services/webrec/match",
    method: "POST",
    body: JSON.stringify({
      data,
      sessionId: "0f6f2c1e-5b8a-4c7e-9d2a-1b3c4d5e6f70",
      lang: "en",
      country: "GB",
    }),
  };
}

/** Wall time of one request, ms; a status other than 200 stops the bench. */
async function timed(base: string, sent: Sent): Promise<number> {
  const started = performance.now();
  const status = await send(base, from(sent));
  if (status !== 200) throw new Error(`${sent.method ?? "GET"} ${sent.path} answered ${status}`);
  return performance.now() - started;
}

async function latencies(base: string, sent: Sent, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await timed(base, sent));
  return times;
}

/** The asset's and the page's times, one request of each in turn, until both `done()` and `timedRequests` each. */
async function pagesWhile(base: string, done: () => boolean): Promise<{ asset: number[]; page: number[] }> {
  const times = { asset: [] as number[], page: [] as number[] };
  while (times.asset.length < timedRequests || !done()) {
    times.asset.push(await timed(base, { path: staticAsset }));
    times.page.push(await timed(base, { path: cachedPage }));
  }
  return times;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const log = (message: string) => process.stderr.write(`isolation: ${message}\n`);

const snapshot = snapshotSite();
try {
  const site = await startOwnOriginSite(snapshot, { recognition: true });
  try {
    // Seeded: every run sends the same worst signature.
    const random = seededRandom(52);
    const worst = encodeSignatureBase64(densest(MAX_FRAMES, () => randomPeakBin(random)));
    const probes = probeBodies().map((body) => JSON.parse(body).data as string);
    const unmatched = (["white", "pink", "brown"] as const).map((colour) =>
      encodeSignatureBase64(
        computeSignature(
          noise(12 * 16_000, 16_000, colour, seededRandom(5)).map((x) => 0.1 * x),
          16_000,
        ),
      ),
    );
    // Warm: compiled code, the cached page in the edge's cache, the store's first reads.
    await latencies(site.url, { path: cachedPage }, 5);
    await latencies(site.url, { path: staticAsset }, 5);
    await latencies(site.url, matchRequest(worst), 2);

    const rows: Row[] = [];
    log(
      `${probes.length} probes, ${unmatched.length * 5} noises and the worst signature 10 times, one at a time`,
    );
    // The matches through the site, one at a time.
    let found = 0;
    const probeTimes: number[] = [];
    for (const data of probes) {
      const started = performance.now();
      const sent = from(matchRequest(data));
      const answer = await fetch(site.url + sent.path, {
        method: "POST",
        headers: sent.headers,
        body: sent.body,
      });
      const body = (await answer.json()) as { matches?: unknown[] };
      probeTimes.push(performance.now() - started);
      if (answer.status === 200 && (body.matches?.length ?? 0) === 1) found += 1;
    }
    const unmatchedTimes: number[] = [];
    for (const data of unmatched) unmatchedTimes.push(...(await latencies(site.url, matchRequest(data), 5)));
    const worstTimes = await latencies(site.url, matchRequest(worst), 10);
    const p50 = (values: number[]) => quantile(values, 0.5);
    rows.push(
      {
        area: "recognition",
        item: `the published probes through the site (${probes.length} catalogue excerpts, one at a time)`,
        figure: `${found} of ${probes.length} matched; p50 ${ms(p50(probeTimes))}, p99 ${ms(quantile(probeTimes, 0.99))}`,
        budget: `all matched`,
        verdict: found === probes.length ? "PASS" : "FAIL",
      },
      {
        area: "recognition",
        item: "real 12 s in no recording (white, pink, brown noise, 5 each) through the site",
        figure: `p50 ${ms(p50(unmatchedTimes))}`,
        budget: "",
        verdict: "info",
      },
      {
        area: "recognition",
        item: "the worst signature inside the bounds (30 s of random peaks) through the site, 10 times",
        figure: `p50 ${ms(p50(worstTimes))} = ${(p50(worstTimes) / p50(unmatchedTimes)).toFixed(2)}× the noise's`,
        budget: `≤ ${loadedP99Budget}× the noise's`,
        verdict: atMost(p50(worstTimes) / p50(unmatchedTimes), loadedP99Budget),
      },
    );

    log(
      `${staticAsset} and ${cachedPage} ${timedRequests} times each, idle, then beside ${attackers} clients of the worst signature`,
    );
    // The pages, idle and while the worst signatures are matched: the asset and the page in
    // turn, one at a time, `timedRequests` of each, and while loaded for as long as it takes each
    // attacker to finish two matches too.
    const idle = await pagesWhile(site.url, () => true);
    let attacking = true;
    const answers = new Map<number, number>();
    const attack = Promise.all(
      Array.from({ length: attackers }, async () => {
        while (attacking) {
          const status = await send(site.url, from(matchRequest(worst)));
          answers.set(status, (answers.get(status) ?? 0) + 1);
        }
      }),
    );
    const attacks = () => [...answers.values()].reduce((sum, count) => sum + count, 0);
    const loaded = await pagesWhile(site.url, () => attacks() >= 2 * attackers);
    attacking = false;
    await attack;
    for (const [name, path] of [
      ["asset", staticAsset],
      ["page", cachedPage],
    ] as const) {
      const idleP99 = quantile(idle[name], 0.99);
      const loadedP99 = quantile(loaded[name], 0.99);
      rows.push({
        area: "isolation",
        item: `${name === "asset" ? "static asset" : "cached page"} ${path}, p99 one at a time (${idle[name].length} idle, ${loaded[name].length} while ${attackers} clients match the worst signature)`,
        figure: `${ms(idleP99)} idle, ${ms(loadedP99)} loaded = ${(loadedP99 / idleP99).toFixed(2)}× (p50 ${ms(quantile(idle[name], 0.5))} → ${ms(quantile(loaded[name], 0.5))})`,
        budget: `≤ ${loadedP99Budget}×`,
        verdict: atMost(loadedP99 / idleP99, loadedP99Budget),
      });
    }
    rows.push({
      area: "isolation",
      item: "worst signatures matched meanwhile, by status (a 504 is the site's upstream timeout, 8 s)",
      figure: JSON.stringify(Object.fromEntries(answers)),
      budget: "",
      verdict: "info",
    });
    console.log(formatTable(rows));
  } finally {
    await site.close();
  }
} finally {
  removeSnapshot(snapshot);
}
