import { env, SELF } from "cloudflare:test";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { secondsUntilNextRecompute } from "#rules/chart-schedule.ts";
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

describe("charts recomputed by the Cron Trigger", () => {
  test("before any recompute: the seeded order, with the time the seed was loaded", async () => {
    const { keys, computedAt } = await chart();
    expect(keys).toEqual(await seededOrder());
    expect(computedAt).toBeDefined();
    expect(Date.parse(computedAt ?? "")).toBeLessThanOrEqual(Date.now());
  });

  test("50 visitors lift a lower-half song into the top 10; the answer says when, cached until the next run", async () => {
    const before = await seededOrder();
    const lowerHalf = before[50] ?? 0;
    await identify(lowerHalf, 60, 50);
    const scheduledTime = new Date(Date.now() - 12 * 60_000);
    await runCron(scheduledTime);

    const earliest = secondsUntilNextRecompute(Date.now());
    const after = await chart();
    const latest = secondsUntilNextRecompute(Date.now());
    expect(after.keys.indexOf(lowerHalf)).toBeGreaterThanOrEqual(0);
    expect(after.keys.indexOf(lowerHalf)).toBeLessThan(10);
    expect(after.computedAt).toBe(scheduledTime.toISOString());
    // The max-age ends at the next ten-minute mark (a mark passing mid-request gives the later value).
    expect([earliest, latest]).toContain(maxAge(after.cacheControl));

    const page = await get("/top-200/france");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Updated 12 minutes ago");
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
