import path from "node:path";
import { performance } from "node:perf_hooks";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { root, type Site, type Snapshot, siteWorkerName, startSite } from "#scripts/site.ts";
import { decodeSignatureBase64, type Signature, signatureSketch } from "#signature/index.ts";
import { atMost, ms, type Row } from "./budgets";
import { benchClientAddress } from "./client-addresses";
import { probeBodies } from "./memory";
import { quantile, round } from "./stats";

/**
 * Decision 032's load test in the bench: identification events and beacons in bursts, from one
 * client address and from many, through the queues into D1. What it proves: nothing is lost,
 * nothing is counted twice (a share of the events is delivered twice, as a queue may), D1 is
 * written in batches (statements per event far below one), the per-client limit refuses no office,
 * and a match is not slower for sending its event.
 */
export const identificationEvents = 10_000;
export const beacons = 100_000;
/** Messages sent at once: a burst, as a popular song's moment or a page view storm makes. */
const burstSize = 1_000;
/** Share of the events sent a second time with the same id: what a queue's redelivery does. */
const redeliveredShare = 0.1;
/** Of the events, the share that comes from one visitor (one address, one webId): a script's loop. */
const oneVisitorShare = 0.5;
/** "An office of fifty people browsing behind one address (500 beacons a minute)". */
const officeBeaconsPerMinute = 500;
/** Matches timed per side for the p99 with events on and off, and how many run at once. */
const timedMatches = 400;
const concurrentMatches = 8;
/** How long the consumer may take to catch up after the last message before the run fails. */
const settleMs = 120_000;

export const liveNumbersBudgets = {
  /** "D1 writes per event far below one": a batch of 100 is a handful of statements. */
  statementsPerEvent: 0.1,
  /** "match latency p99 unchanged with events on vs off": within the noise of one machine. */
  matchP99Ratio: 1.25,
  /** "the checks add under 1 ms at p50" (decision 032). */
  checksAddP50Ms: 1,
} as const;

/** One consumed batch, as origin/queue.ts logs it ("identifications: 100 events (0 malformed) in 7 statements, 780 rows written"). */
type ConsumedBatch = { queue: string; messages: number; statements: number; rowsWritten: number };
const consumedLine =
  /\b(identifications|beacons): (\d+) \w+ \((\d+) malformed\) in (\d+) statements, (\d+) rows written/;

function parseConsumed(line: string): ConsumedBatch | undefined {
  const match = consumedLine.exec(line);
  if (!match) return undefined;
  return {
    queue: match[1] ?? "",
    messages: Number(match[2]) + Number(match[3]),
    statements: Number(match[4]),
    rowsWritten: Number(match[5]),
  };
}

function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** A visitor hash as the producer makes them (rules/visitor-hash.ts). */
function visitorHash(n: number): string {
  return `w:${n.toString(16).padStart(32, "0")}`;
}

type Event = {
  id: string;
  trackKey: number;
  country: string;
  cityId: number;
  day: string;
  visitorHash: string;
  addressHash: string;
  at: number;
};

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + settleMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not there after ${settleMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function identificationsRun(site: Site, trackKeys: number[], consumed: ConsumedBatch[]) {
  const producer = await site.miniflare.getQueueProducer<Event>("IDENTIFICATIONS", siteWorkerName);
  const db = await site.miniflare.getD1Database("DB", siteWorkerName);
  const now = Date.now();
  const events: Event[] = Array.from({ length: identificationEvents }, (_, n) => ({
    id: crypto.randomUUID(),
    trackKey: trackKeys[n % trackKeys.length] as number,
    country: ["US", "GB", "DE", "BR", "JP"][n % 5] as string,
    cityId: 0,
    day: utcDay(now),
    visitorHash: visitorHash(n < identificationEvents * oneVisitorShare ? 1 : n + 2),
    // Each visitor on an address of its own: the per-address cap is the consumer test's, not this run's.
    addressHash: visitorHash(n < identificationEvents * oneVisitorShare ? 1 : n + 2).replace(/^w:/, "a:"),
    at: now,
  }));
  const sent = [...events, ...events.filter((_, n) => n % Math.round(1 / redeliveredShare) === 0)];
  // What the counters must say: every event once; a visitor once per track per day, in the charts
  // and the tag counts alike.
  const visits = new Set(events.map((event) => `${event.day} ${event.trackKey} ${event.visitorHash}`));
  const started = performance.now();
  for (let from = 0; from < sent.length; from += burstSize) {
    const burst = sent.slice(from, from + burstSize);
    const calls: Promise<unknown>[] = [];
    for (let at = 0; at < burst.length; at += 100) {
      calls.push(
        producer.sendBatch(burst.slice(at, at + 100).map((body) => ({ body, contentType: "json" as const }))),
      );
    }
    await Promise.all(calls);
  }
  const totals = await waitFor(
    () =>
      db
        .prepare(
          `SELECT (SELECT COALESCE(SUM(identifications), 0) FROM daily_identifications) AS identifications,
                  (SELECT COALESCE(SUM(visitors), 0) FROM daily_identifications) AS visitors,
                  (SELECT COALESCE(SUM(total), 0) FROM live_tag_counts) AS tagged`,
        )
        .first<{ identifications: number; visitors: number; tagged: number }>(),
    (row) =>
      (row?.identifications ?? 0) >= events.length &&
      consumed.filter((batch) => batch.queue === "identifications").reduce((n, b) => n + b.messages, 0) >=
        sent.length,
    "identification events",
  );
  const seconds = (performance.now() - started) / 1000;
  const batches = consumed.filter((batch) => batch.queue === "identifications");
  return {
    sent: sent.length,
    unique: events.length,
    expectedVisitors: visits.size,
    counted: totals?.identifications ?? 0,
    visitors: totals?.visitors ?? 0,
    tagged: totals?.tagged ?? 0,
    batches: batches.length,
    statements: batches.reduce((n, batch) => n + batch.statements, 0),
    rowsWritten: batches.reduce((n, batch) => n + batch.rowsWritten, 0),
    seconds,
  };
}

type Sent = { status: number; ms: number };

/** `count` requests, `concurrency` at a time, each made by `request(n)`. */
async function sendAll(
  count: number,
  concurrency: number,
  request: (n: number) => Promise<Response>,
): Promise<Sent[]> {
  const results: Sent[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const n = next++;
        const started = performance.now();
        const response = await request(n);
        await response.arrayBuffer();
        results.push({ status: response.status, ms: performance.now() - started });
      }
    }),
  );
  return results;
}

async function beaconsReceived(site: Site, since: number): Promise<number> {
  const response = await fetch(`${site.url}/services/metrics/received?since=${since}`);
  if (!response.ok) throw new Error(`/services/metrics/received answered ${response.status}`);
  return ((await response.json()) as { total: number }).total;
}

/** Beacons sent at once before the run waits for the queue to catch up: a page-view storm. */
const beaconBurst = 5_000;

async function beaconsRun(site: Site, consumed: ConsumedBatch[]) {
  const since = Date.now();
  const beacon = (n: number, address: string) =>
    fetch(`${site.url}/services/metrics/bench/${Date.now()}?n=${n}`, {
      headers: { "cf-connecting-ip": address },
    });
  const all: Sent[] = [];
  /** `count` beacons in bursts, each stored before the next starts. */
  const inBursts = async (count: number, address: (n: number) => string) => {
    const sent: Sent[] = [];
    for (let from = 0; from < count; from += beaconBurst) {
      const burst = await sendAll(Math.min(beaconBurst, count - from), 64, (n) =>
        beacon(from + n, address(from + n)),
      );
      sent.push(...burst);
      all.push(...burst);
      const accepted = all.filter((one) => one.status === 200).length;
      await waitFor(
        () => beaconsReceived(site, since),
        (total) => total >= accepted,
        "beacons",
      );
    }
    return sent;
  };
  // An office: fifty people's minute of beacons from one address, all at once.
  const office = await inBursts(officeBeaconsPerMinute, () => "203.0.113.50");
  const half = (beacons - officeBeaconsPerMinute) / 2;
  const oneAddress = await inBursts(half, () => "203.0.113.1");
  const manyAddresses = await inBursts(half, (n) => `198.51.${(n >> 8) & 255}.${n & 255}`);
  const accepted = all.filter((sent) => sent.status === 200).length;
  const stored = await beaconsReceived(site, since);
  const batches = consumed.filter((batch) => batch.queue === "beacons");
  return {
    sent: all.length,
    accepted,
    stored,
    officeRefused: office.filter((sent) => sent.status === 429).length,
    oneAddressRefused: oneAddress.filter((sent) => sent.status === 429).length,
    manyAddressesRefused: manyAddresses.filter((sent) => sent.status === 429).length,
    queueRefused: all.filter((sent) => sent.status === 503).length,
    otherStatuses: all.filter((sent) => ![200, 429, 503].includes(sent.status)).length,
    statements: batches.reduce((n, batch) => n + batch.statements, 0),
    batches: batches.length,
  };
}

/** The latencies (ms) of `timedMatches` catalogue matches, `concurrentMatches` at once, each with `cookie`. */
async function matchLatencies(site: Site, cookie = ""): Promise<number[]> {
  const bodies = probeBodies();
  const match = (n: number) =>
    fetch(`${site.url}/services/webrec/match`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: cookie || `webId=bench-${n}`,
        "cf-connecting-ip": benchClientAddress(n),
      },
      body: bodies[n % bodies.length],
    });
  await sendAll(bodies.length, concurrentMatches, match);
  const timed = await sendAll(timedMatches, concurrentMatches, match);
  if (timed.some((sent) => sent.status !== 200)) throw new Error("a match answered other than 200");
  return timed.map((sent) => sent.ms);
}

async function matchP99(site: Site): Promise<number> {
  return quantile(await matchLatencies(site), 0.99);
}

/**
 * The latencies (ms) of 100 match requests, one at a time, that stop after the checks of who
 * counts: an empty body, refused by the request schema (400), each from an address of its own.
 */
async function stoppedAfterChecks(site: Site, cookie: string, round: number): Promise<number[]> {
  const stop = (n: number) =>
    fetch(`${site.url}/services/webrec/match`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie,
        "cf-connecting-ip": benchClientAddress(round * 100 + n),
      },
      body: "{}",
    });
  const sent = await sendAll(100, 1, stop);
  if (sent.some((answer) => answer.status !== 400))
    throw new Error("a stopped request answered other than 400");
  return sent.map((answer) => answer.ms);
}

/** A visitor's webId and voucher, as a page of `site` gives them: what the checks verify on every match. */
async function vouchedCookie(site: Site): Promise<string> {
  const page = await fetch(`${site.url}/terms`, {
    headers: {
      "cf-connecting-ip": benchClientAddress(65_535),
      "user-agent": "Mozilla/5.0 (bench) Chrome/156",
    },
  });
  await page.arrayBuffer();
  const cookie = page.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(";")[0])
    .join("; ");
  if (!cookie.includes("webIdSig=")) throw new Error("the site gave no voucher");
  return cookie;
}

/**
 * The site without the checks of who may count (decision 032) that a match request meets: its
 * match limit replaced by one that lets everything through, and no voucher keys (nobody is
 * verified). The signature's sketch and the address hash are computed either way.
 */
const allowAll = {
  name: "match-limit-allows-all",
  modules: true,
  script: "export default function () { return { async limit() { return { success: true }; } }; }",
};

/**
 * The site with its identifications producer replaced by one that sends nothing ("events off"):
 * the same build, the same match, only the event's cost left out.
 */
const noEventsQueue = {
  name: "no-identification-events",
  modules: true,
  script: "export default function () { return { async send() {}, async sendBatch() {} }; }",
};

export async function measureLiveNumbers(snapshot: Snapshot, rows: Row[]) {
  const area = "live numbers";
  const consumed: ConsumedBatch[] = [];
  const site = await startSite(snapshot, {
    recognition: true,
    takeRuntimeLine: (line) => {
      const batch = parseConsumed(line);
      if (batch) consumed.push(batch);
      return batch !== undefined;
    },
  });
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
  const unchecked = await startSite(snapshot, {
    recognition: true,
    vars: { VISITOR_ID_KEYS: "" },
    workerOptions: {
      ratelimits: Object.fromEntries(
        Object.entries(workerOptions.ratelimits ?? {}).filter(([name]) => name !== "MATCH_LIMIT"),
      ),
      wrappedBindings: { MATCH_LIMIT: allowAll.name },
    },
    extraWorkers: [allowAll],
  });
  const quiet = await startSite(snapshot, {
    recognition: true,
    // The queue producer binding wrangler.toml declares would win over the wrapped one: left out.
    workerOptions: {
      queueProducers: { BEACONS: { queueName: "tunewave-beacons" } },
      wrappedBindings: { IDENTIFICATIONS: noEventsQueue.name },
    },
    extraWorkers: [noEventsQueue],
  });
  try {
    const db = await site.miniflare.getD1Database("DB", siteWorkerName);
    const { results: tracks } = await db
      .prepare("SELECT key FROM tracks ORDER BY key")
      .all<{ key: number }>();
    const identifications = await identificationsRun(
      site,
      tracks.map((track) => track.key),
      consumed,
    );
    const lost = identifications.unique - identifications.counted;
    rows.push({
      area,
      item: `${identifications.sent} identification events (${identifications.unique} + ${identifications.sent - identifications.unique} redelivered), ${oneVisitorShare * 100}% from one visitor: lost / counted twice`,
      figure: `${Math.max(lost, 0)} / ${Math.max(-lost, 0)} (tag counts +${identifications.tagged})`,
      budget: "0 / 0",
      verdict: lost === 0 && identifications.tagged === identifications.expectedVisitors ? "PASS" : "FAIL",
    });
    rows.push({
      area,
      item: "chart visits (a visitor once per track per day)",
      figure: `${identifications.visitors} of ${identifications.expectedVisitors} expected`,
      budget: "equal",
      verdict: identifications.visitors === identifications.expectedVisitors ? "PASS" : "FAIL",
    });
    const statementsPerEvent = identifications.statements / identifications.sent;
    rows.push({
      area,
      item: `D1 statements per identification event (${identifications.batches} batches)`,
      figure: `${round(statementsPerEvent, 3)} (${round(identifications.rowsWritten / identifications.sent, 2)} rows written per event; ${round(identifications.sent / identifications.seconds, 0)} events/s)`,
      budget: `≤ ${liveNumbersBudgets.statementsPerEvent}`,
      verdict: atMost(statementsPerEvent, liveNumbersBudgets.statementsPerEvent),
    });

    // Events on and off, alternated so that the machine's drift falls on both sides.
    const on: number[] = [];
    const off: number[] = [];
    for (let round = 0; round < 2; round++) {
      on.push(await matchP99(site));
      off.push(await matchP99(quiet));
    }
    const ratio = Math.max(...on) / Math.max(...off);
    rows.push({
      area,
      item: `match p99, events on / off (${timedMatches} × 2 each, ${concurrentMatches} at once)`,
      figure: `${ms(Math.max(...on))} / ${ms(Math.max(...off))} = ${round(ratio, 2)}×`,
      budget: `≤ ${liveNumbersBudgets.matchP99Ratio}×`,
      verdict: atMost(ratio, liveNumbersBudgets.matchP99Ratio),
    });

    const beaconRun = await beaconsRun(site, consumed);
    const beaconsLost = beaconRun.accepted - beaconRun.stored;
    rows.push({
      area,
      item: `${beaconRun.sent} beacons in bursts of ${beaconBurst} (one address and many): lost / stored twice / queue refused`,
      figure: `${Math.max(beaconsLost, 0)} / ${Math.max(-beaconsLost, 0)} / ${beaconRun.queueRefused} of ${beaconRun.accepted} accepted`,
      budget: "0 / 0 / 0",
      verdict:
        beaconsLost === 0 && beaconRun.queueRefused === 0 && beaconRun.otherStatuses === 0 ? "PASS" : "FAIL",
    });
    rows.push({
      area,
      item: `refused: an office (${officeBeaconsPerMinute} in a minute, one address) / many addresses / one address`,
      figure: `${beaconRun.officeRefused} / ${beaconRun.manyAddressesRefused} / ${beaconRun.oneAddressRefused}`,
      budget: "0 / 0 / any",
      verdict: beaconRun.officeRefused === 0 && beaconRun.manyAddressesRefused === 0 ? "PASS" : "FAIL",
    });
    const statementsPerBeacon = beaconRun.statements / Math.max(beaconRun.accepted, 1);
    rows.push({
      area,
      item: `D1 statements per beacon (${beaconRun.batches} batches)`,
      figure: `${round(statementsPerBeacon, 3)}`,
      budget: `≤ ${liveNumbersBudgets.statementsPerEvent}`,
      verdict: atMost(statementsPerBeacon, liveNumbersBudgets.statementsPerEvent),
    });
    // The checks of who may count, on and off, alternated too: the limit and the voucher's HMAC.
    // A whole match's latency is hundreds of ms and its noise tens, so what the checks add is
    // also timed on requests that stop right after them (an empty body, refused by the schema).
    const cookie = await vouchedCookie(site);
    const checked: number[] = [];
    const free: number[] = [];
    const checkedStops: number[] = [];
    const freeStops: number[] = [];
    for (let round = 0; round < 2; round++) {
      checked.push(...(await matchLatencies(site, cookie)));
      free.push(...(await matchLatencies(unchecked)));
    }
    for (let round = 0; round < 10; round++) {
      checkedStops.push(...(await stoppedAfterChecks(site, cookie, round)));
      freeStops.push(...(await stoppedAfterChecks(unchecked, cookie, round)));
    }
    const p99Ratio = quantile(checked, 0.99) / quantile(free, 0.99);
    rows.push({
      area,
      item: `match p50 / p99, the checks of who counts on / off (limit, voucher; ${timedMatches} × 2 each, ${concurrentMatches} at once)`,
      figure: `p50 ${ms(quantile(checked, 0.5))} / ${ms(quantile(free, 0.5))}; p99 ${ms(quantile(checked, 0.99))} / ${ms(quantile(free, 0.99))} = ${round(p99Ratio, 2)}×`,
      budget: `p99 ≤ ${liveNumbersBudgets.matchP99Ratio}×`,
      verdict: atMost(p99Ratio, liveNumbersBudgets.matchP99Ratio),
    });
    const added = quantile(checkedStops, 0.5) - quantile(freeStops, 0.5);
    // What both sides do and the site cannot leave out: the signature's sketch, timed here alone.
    const signatures = probeBodies().map((body) =>
      decodeSignatureBase64((JSON.parse(body) as { data: string }).data),
    );
    const sketchMs: number[] = [];
    for (let n = 0; n < 2000; n++) {
      const started = performance.now();
      signatureSketch(signatures[n % signatures.length] as Signature);
      sketchMs.push(performance.now() - started);
    }
    const sketchP50 = quantile(sketchMs, 0.5);
    rows.push({
      area,
      item: `what the checks add to a match at p50: the limit and the voucher (a request that stops after them, ${checkedStops.length} each, one at a time) + the sketch (Node, 2 000 times)`,
      figure: `${round(quantile(checkedStops, 0.5), 2)} − ${round(quantile(freeStops, 0.5), 2)} ms + ${round(sketchP50 * 1000, 0)} µs = ${round(added + sketchP50, 2)} ms`,
      budget: `< ${liveNumbersBudgets.checksAddP50Ms} ms`,
      verdict: atMost(added + sketchP50, liveNumbersBudgets.checksAddP50Ms),
    });
    return {
      identifications,
      beacons: beaconRun,
      matchP99: { on, off },
      checks: { checked, free, checkedStops, freeStops, sketchMs: sketchP50 },
    };
  } finally {
    await site.close();
    await quiet.close();
    await unchecked.close();
  }
}
