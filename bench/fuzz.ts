import { performance } from "node:perf_hooks";
import { seededRandom } from "#origin/catalog/audio-degrade.ts";
import { removeSnapshot, snapshotSite, startSite } from "#scripts/site.ts";
import { productionHeapLimit } from "#scripts/v8-flags.ts";
import { freePort } from "./free-port";
import { type HeapUsage, inspectHeap } from "./heap";
import { quantile, round } from "./stats";

/**
 * `npm run fuzz` (decision 028): generated hostile requests (paths, parameters, cookies, headers,
 * methods, bodies, app-bridge messages) against the production build in workerd, served through
 * Miniflare's API as the bench does. Every request carries a unique marker; an answer that holds
 * it unescaped is a reflection. Reports 5xx, connection errors, reflections, latency beside the
 * static asset's in the same run (a slow hostile request, not a loaded machine, is one slower than
 * the static asset by more than `slowMarginMs`), and the isolate's JS heap through the inspector:
 * used, and retained after a full collection, at the start, every 10 000 requests and at the end,
 * under production's heap limit (scripts/v8-flags.ts).
 *
 * FUZZ_REQUESTS (default 100 000), FUZZ_SECONDS (time bound, default 1 200), FUZZ_CONCURRENCY
 * (default 4), FUZZ_SEED (default 28). Exits 1 on any 5xx or reflection.
 */

const total = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const timeBoundMs = Number(process.env.FUZZ_SECONDS ?? 1_200) * 1000;
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 4);
const heapEvery = 10_000;
/** The reference every hostile request is compared with: a static asset of the same worker. */
const staticAsset = "/favicon.svg";
/** One static request beside every this many hostile ones. */
const staticEvery = 20;
/** Decision 028: "p99 of hostile requests under 50 ms": slower than the static asset by more is slow. */
const slowMarginMs = 50;

/** Seeded, so a failing run can be repeated. */
function generator(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

type Generated = { method: string; path: string; headers: Record<string, string>; body?: string };

const pagePrefixes = [
  "/",
  "/de/",
  "/zh-tw/",
  "/amp/",
  "/amp/de/",
  "/track/",
  "/track/40333609/",
  "/artist/",
  "/charts/",
  "/charts/top-200/",
  "/search?q=",
  "/identify",
  "/concerts/",
  "/event/",
  "/campaign/",
  "/share/",
  "/myshazam",
  "/privacy/",
  "/login/",
  "/survey",
  "/applemusic/signin/mockactivate?client_id=",
];
const servicePrefixes = [
  "/services/track/v1/en/GB/web/",
  "/services/artist/v1/en/GB/web/",
  "/services/charts/",
  "/services/search/v1/en/GB/web/search?term=",
  "/services/account/status",
  "/services/account/tags",
  "/services/event/v1/GB/shazam-events?countryCode=",
  "/services/metrics/",
  "/services/log/",
  "/services/webrec/match",
  "/services/config/",
  "/services/qr/event/en/GB/",
  "/campaign/data/",
  "/services/../admin",
  "/services/amapi/%2F..%2F",
];
const pieces = [
  "%5c",
  "%5C",
  "%00",
  "%0d%0a",
  "%2e%2e%2f",
  "../",
  "//evil.example",
  "%E0%A4%A",
  "%ff",
  "\u202e",
  "😀",
  "a".repeat(300),
  "javascript:alert(1)",
  "%3Cscript%3E",
  "{{7*7}}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent as text.
  "${7*7}",
  "' OR 1=1 --",
  "-1",
  "99999999999999999999",
  "NaN",
  "[object Object]",
];

/** The marker of request n, in the forms that break out of HTML text, attributes and scripts. */
function markerOf(n: number): string {
  return `<zq${n}x>"zq${n}x'`;
}

function hostile(n: number, random: ReturnType<typeof generator>): Generated {
  const marker = markerOf(n);
  const encoded = encodeURIComponent(marker);
  const headers: Record<string, string> = {};
  const kind = random.int(10);
  let path: string;
  if (kind < 4) {
    path = random.pick(pagePrefixes);
  } else if (kind < 7) {
    path = random.pick(servicePrefixes);
  } else {
    path = `/${Array.from({ length: random.int(12) }, () => random.pick(pieces)).join("/")}`;
  }
  const segments = random.int(4);
  for (let i = 0; i < segments; i++)
    path += `${i === 0 && !path.endsWith("/") && !path.includes("?") ? "/" : ""}${random.pick(pieces)}`;
  path += random.next() < 0.6 ? encoded : random.pick(pieces);
  if (random.next() < 0.5) {
    const params = [
      "q",
      "lang",
      "co",
      "term",
      "redirect",
      "token",
      "itsct",
      "adamid",
      "from",
      "offset",
      "since",
      "netlog",
      "bridge",
    ];
    path += `${path.includes("?") ? "&" : "?"}${random.pick(params)}=${random.next() < 0.7 ? encoded : random.pick(pieces)}`;
  }
  if (random.next() < 0.05) path += `/${"s/".repeat(random.int(200))}`;
  if (random.next() < 0.02) path += "x".repeat(random.int(10_000));
  // Cookies: the site's own names with hostile values, and garbage.
  if (random.next() < 0.4) {
    const cookies = [
      `lang=${encoded}`,
      `appConfig=${encodeURIComponent(JSON.stringify({ country: marker, app: marker, version: random.int(1e9) }))}`,
      `session=${encoded}`,
      `webId=${encoded}`,
      `${encoded}=${encoded}`,
      "appConfig=%7B%22broken",
    ];
    headers.cookie = Array.from({ length: 1 + random.int(3) }, () => random.pick(cookies)).join("; ");
  }
  if (random.next() < 0.3)
    headers["accept-language"] = random.pick([
      marker,
      "de;q=2, *;q=-1",
      "x".repeat(300),
      "zh-Hant-TW,zh;q=0.9",
    ]);
  if (random.next() < 0.2)
    headers["user-agent"] = random.pick([marker, "Googlebot/2.1", "TunewaveApp/14.0 (iPhone; iOS 17)", ""]);
  if (random.next() < 0.1) headers["x-shz-lat"] = random.pick([marker, "91", "-0.1", "NaN"]);
  if (random.next() < 0.1) headers.referer = `https://evil.example/${encoded}`;
  if (random.next() < 0.1) headers["x-services-retry"] = "1";
  if (random.next() < 0.1) headers["cache-control"] = "no-cache";
  if (random.next() < 0.02) headers["x-padding"] = "p".repeat(random.int(40_000));
  if (random.next() < 0.1) headers.origin = random.pick(["https://evil.example", "null"]);
  const method =
    random.next() < 0.75 ? "GET" : random.pick(["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]);
  let body: string | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const bodies = [
      `email=${encoded}&redirect=${encoded}`,
      JSON.stringify({ signature: marker, sessionId: marker, timestamp: marker }),
      // An app-bridge message as the app would post it, with hostile fields.
      JSON.stringify({ type: "trackResult", data: { trackId: marker }, callbackId: marker }),
      "{broken json",
      marker.repeat(1 + random.int(2000)),
      "",
    ];
    body = random.pick(bodies);
    headers["content-type"] = random.pick([
      "application/x-www-form-urlencoded",
      "application/json",
      "text/plain",
      "multipart/form-data; boundary=x",
    ]);
  }
  return { method, path: path.startsWith("/") ? path : `/${path}`, headers, body };
}

/** The marker unescaped: an HTML tag or an attribute quote of it as it was sent. */
function reflects(text: string, contentType: string, n: number): boolean {
  if (/json/.test(contentType)) return false;
  if (text.includes(`<zq${n}x`)) return true;
  const quote = `"zq${n}x`;
  for (let at = text.indexOf(quote); at !== -1; at = text.indexOf(quote, at + 1)) {
    if (text[at - 1] !== "\\") return true;
  }
  return false;
}

/** p50, p99 and max of durations in ms. */
function spread(durations: number[]) {
  return {
    p50: round(quantile(durations, 0.5)),
    p99: round(quantile(durations, 0.99)),
    // Not Math.max(...durations): 200 000 arguments overflow the stack.
    max: round(durations.reduce((max, ms) => Math.max(max, ms), 0)),
  };
}

function messageOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error instanceof Error ? error.message : error}${cause}`;
}

async function main() {
  const random = generator(Number(process.env.FUZZ_SEED ?? 28));
  const snapshot = snapshotSite();
  const inspectorPort = await freePort();
  const site = await startSite(snapshot, { inspectorPort, v8Flags: productionHeapLimit });
  const statuses = new Map<number, number>();
  const serverErrors: string[] = [];
  const connectionErrors: string[] = [];
  const reflections: string[] = [];
  const durations: { ms: number; describe: string }[] = [];
  const staticDurations: number[] = [];
  const heap: ({ after: number; retained: HeapUsage } & HeapUsage)[] = [];
  let sent = 0;
  let done = 0;
  const started = performance.now();
  const inspector = await inspectHeap(inspectorPort);
  const readHeap = async (after: number) => {
    const usage = await inspector.usage();
    heap.push({ after, ...usage, retained: await inspector.afterCollection() });
    const last = heap.at(-1);
    process.stderr.write(
      `fuzz: ${after} requests, heap used ${last?.usedMb} MB, retained ${last?.retained.usedMb} MB\n`,
    );
  };
  try {
    // Warm up (first render compiles the routes), then the baseline heap.
    for (const path of ["/", "/track/40333609", "/charts", "/nothing-here", staticAsset])
      await (await fetch(site.url + path)).text();
    await readHeap(0);
    const worker = async () => {
      while (sent < total && performance.now() - started < timeBoundMs) {
        const n = ++sent;
        const request = hostile(n, random);
        const describe = `${request.method} ${request.path.slice(0, 200)}`;
        const begun = performance.now();
        let response: Response;
        try {
          response = await fetch(site.url + request.path, {
            method: request.method,
            headers: request.headers,
            body: request.body,
            redirect: "manual",
          });
        } catch (error) {
          connectionErrors.push(`${describe}: ${messageOf(error)}`);
          continue;
        }
        const text = await response.text();
        durations.push({ ms: performance.now() - begun, describe });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) serverErrors.push(`${response.status} ${describe}`);
        if (reflects(text, response.headers.get("content-type") ?? "", n)) reflections.push(describe);
        // Counted before the static request's await: another client may count meanwhile.
        const answered = ++done;
        if (n % staticEvery === 0) {
          // The machine's state at this moment: the cheapest answer the worker has.
          const staticBegun = performance.now();
          await (await fetch(site.url + staticAsset)).arrayBuffer();
          staticDurations.push(performance.now() - staticBegun);
        }
        if (answered % heapEvery === 0) await readHeap(answered);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    await readHeap(done);
  } finally {
    inspector.close();
    await site.close();
    removeSnapshot(snapshot);
  }
  const seconds = round((performance.now() - started) / 1000, 1);
  const hostileMs = spread(durations.map((entry) => entry.ms));
  const staticMs = spread(staticDurations);
  const slow = durations
    .filter((entry) => entry.ms > staticMs.p99 + slowMarginMs)
    .sort((a, b) => b.ms - a.ms);
  const report = {
    requests: done,
    seconds,
    concurrency,
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    serverErrors: { count: serverErrors.length, samples: serverErrors.slice(0, 10) },
    connectionErrors: { count: connectionErrors.length, samples: connectionErrors.slice(0, 10) },
    reflections: { count: reflections.length, samples: reflections.slice(0, 10) },
    latencyMs: {
      hostile: hostileMs,
      [`static ${staticAsset} (${staticDurations.length} beside them)`]: staticMs,
    },
    [`slower than the static p99 + ${slowMarginMs} ms`]: {
      count: slow.length,
      slowest: slow.slice(0, 10).map((entry) => `${round(entry.ms)} ms ${entry.describe}`),
    },
    heapMb: heap,
  };
  console.log(JSON.stringify(report, null, 2));
  const failed = serverErrors.length + connectionErrors.length + reflections.length > 0 || done < total;
  if (failed) process.exitCode = 1;
}

await main();
