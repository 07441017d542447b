import { env, SELF } from "cloudflare:test";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import {
  chartFreshSeconds,
  chartRecomputeMinutes,
  lateRecomputeRecheckSeconds,
} from "#rules/chart-schedule.ts";
import { playlistTracksDocumentSchema } from "#rules/schemas/amapi.ts";
import { get } from "./site";

const chartPath = "/services/amapi/v1/catalog/fr/playlists/ip-country-chart-FR/tracks?limit=200";
const cron = "*/10 * * * *";

async function chart() {
  const response = await get(chartPath);
  expect(response.status).toBe(200);
  const document = v.parse(playlistTracksDocumentSchema, await response.json());
  return {
    keys: document.data.map((song) => Number(song.attributes.shazamKey)),
    computedAt: document.meta.computedAt,
    cacheControl: response.headers.get("cache-control") ?? "",
  };
}

/** Today's live counters of `trackKey` in France, as the identifications consumer writes them. */
async function identify(trackKey: number, identifications: number, visitors: number) {
  await env.DB.prepare(
    "INSERT INTO daily_identifications (day, track_key, country, city_id, identifications, visitors) VALUES (?, ?, 'FR', 0, ?, ?)",
  )
    .bind(new Date().toISOString().slice(0, 10), trackKey, identifications, visitors)
    .run();
}

/**
 * France's seeded order, read from D1: a chart answer fetched before the recompute would stay in
 * the edge's services cache until the next ten-minute mark, as a real one does.
 */
async function seededOrder(): Promise<number[]> {
  const seeded = await env.DB.prepare(
    "SELECT track_key FROM country_tag_counts WHERE country = 'FR' ORDER BY total DESC, track_key",
  ).all<{ track_key: number }>();
  return seeded.results.map((row) => row.track_key);
}

/** The built worker's scheduled handler, as the Cron Trigger calls it (SELF is typed for fetch only; it is a Fetcher). */
function runCron(scheduledTime: Date) {
  return (
    SELF as unknown as { scheduled(options: { scheduledTime: Date; cron: string }): Promise<unknown> }
  ).scheduled({ scheduledTime, cron });
}

function maxAge(cacheControl: string): number {
  return Number(/max-age=(\d+)/.exec(cacheControl)?.[1]);
}

/** The ten-minute mark the Cron Trigger last ran at, `marksAgo` marks before the latest. */
function mark(marksAgo: number): Date {
  const period = chartRecomputeMinutes * 60_000;
  return new Date((Math.floor(Date.now() / period) - marksAgo) * period);
}

/** The track keys of a chart page's rows, in their order. */
function rowKeysOf(page: string): number[] {
  return [...page.matchAll(/<a class="track-row__title"[^>]* href="(?:\/[a-z-]+)?\/track\/(\d+)\//g)].map(
    (match) => Number(match[1]),
  );
}

/** The chart heading's "Updated …": the recompute's time and the words the page says. */
function updatedOf(page: string): { at: string | undefined; text: string | undefined } {
  const head = /<header class="chart-head">(.*?)<\/header>/s.exec(page)?.[1] ?? "";
  const match = /<time datetime="([^"]+)">([^<]+)<\/time>/i.exec(head);
  return { at: match?.[1], text: match?.[2] };
}

describe("charts recomputed by the Cron Trigger", () => {
  test("before any recompute: the seeded order, with the time the seed was loaded", async () => {
    const { keys, computedAt } = await chart();
    expect(keys).toEqual(await seededOrder());
    expect(computedAt).toBeDefined();
    expect(Date.parse(computedAt ?? "")).toBeLessThanOrEqual(Date.now());
  });

  test("50 visitors lift a lower-half song into the top 10; the answer and the page say that run's time", async () => {
    const before = await seededOrder();
    const lowerHalf = before[50] ?? 0;
    await identify(lowerHalf, 60, 50);
    const scheduledTime = new Date(Date.now() - 12 * 60_000);
    await runCron(scheduledTime);

    const after = await chart();
    expect(after.keys.indexOf(lowerHalf)).toBeGreaterThanOrEqual(0);
    expect(after.keys.indexOf(lowerHalf)).toBeLessThan(10);
    expect(after.computedAt).toBe(scheduledTime.toISOString());
    // The run after this one was due two minutes ago and has not stored: the answer is kept only
    // until a look again, not until the next mark (which would keep this order past that run).
    expect(maxAge(after.cacheControl)).toBe(lateRecomputeRecheckSeconds);

    const page = await get("/top-200/france");
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(rowKeysOf(text).slice(0, 10)).toContain(lowerHalf);
    expect(updatedOf(text)).toEqual({ at: scheduledTime.toISOString(), text: "Updated 12 minutes ago" });
  });

  test("a page after a run has that run's order and time, and is kept until the next run is due", async () => {
    const before = await seededOrder();
    const lowerHalf = before[60] ?? 0;
    await identify(lowerHalf, 60, 50);
    const scheduledTime = mark(0);
    await runCron(scheduledTime);

    // The discovery page ranks by momentum, the others by score; both are this run's. (Addresses
    // no other test of this file asks for: the edge's document cache lives as long as the isolate.)
    for (const path of ["/fr/top-200/france", "/discovery/france"]) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      const text = await page.text();
      expect(rowKeysOf(text).slice(0, 10), path).toContain(lowerHalf);
      expect(updatedOf(text).at, path).toBe(scheduledTime.toISOString());
    }
    // The AMP form, like every chart answer the pages are made of, is kept until the next mark (the
    // document cache keeps the React page so too: Document-Cache-Control, never sent on), and
    // never answered stale past it.
    const earliest = chartFreshSeconds(scheduledTime.getTime(), Date.now());
    const amp = await get("/amp/top-200/france");
    const latest = chartFreshSeconds(scheduledTime.getTime(), Date.now());
    expect(amp.status).toBe(200);
    const ampControl = amp.headers.get("cache-control") ?? "";
    expect(ampControl).toMatch(/^public, max-age=\d+, must-revalidate$/);
    expect([earliest, latest]).toContain(maxAge(ampControl));
    expect(updatedOf(await amp.text()).at).toBe(scheduledTime.toISOString());
  });

  test("one visitor identifying a song 50 times does not move it into the top 10", async () => {
    const before = await seededOrder();
    const lowerHalf = before[50] ?? 0;
    await identify(lowerHalf, 50, 1);
    await runCron(new Date());
    const after = await chart();
    expect(after.keys.indexOf(lowerHalf)).toBeGreaterThanOrEqual(10);
    expect(after.keys.slice(0, 10)).toEqual(before.slice(0, 10));
  });
});
