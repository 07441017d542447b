import { env } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { get } from "./site";

// The numbers the demo catalogue made up (decision 032's seeded baselines: tag totals and the
// per-country counts charts rank by) are labelled as demo data on the pages that show them, as
// the concerts and lyrics are; a number visitors made is not. Each case asks for an address no
// other asks for: the edge's document cache lives as long as the isolate.

const badge = '<span class="demo-badge">Demo data</span>';

async function html(path: string): Promise<string> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The `skip`-th catalogue track with a seeded tag count. */
async function seededTrack(skip: number): Promise<{ key: number; alias: string }> {
  const row = await env.DB.prepare(
    "SELECT t.key, t.alias FROM tracks t JOIN tag_counts c ON c.track_key = t.key WHERE c.total > 0 ORDER BY t.key LIMIT 1 OFFSET ?",
  )
    .bind(skip)
    .first<{ key: number; alias: string }>();
  if (!row) throw new Error("the catalogue has no seeded tag count");
  return row;
}

/** The track's seeded count taken away, and `live` identifications counted by visitors instead. */
async function countOnlyLive(trackKey: number, live: number): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM tag_counts WHERE track_key = ?").bind(trackKey),
    env.DB.prepare("INSERT OR REPLACE INTO live_tag_counts (track_key, total) VALUES (?, ?)").bind(
      trackKey,
      live,
    ),
  ]);
}

/** The heading's count paragraph of a track page. */
function heroCount(page: string): string {
  return /<p class="track-hero__count"[^>]*>(.*?)<\/p>/s.exec(page)?.[1] ?? "";
}

describe("a track page's count", () => {
  test.each([
    { name: "includes the seeded count", skip: 0, live: undefined, total: undefined, demo: true },
    { name: "is visitors' identifications only", skip: 1, live: 3, total: 3, demo: false },
  ])("that $name is labelled demo data: $demo", async ({ skip, live, total, demo }) => {
    const track = await seededTrack(skip);
    if (live !== undefined) await countOnlyLive(track.key, live);
    const page = await html(`/track/${track.key}/${track.alias}`);
    const count = heroCount(page);
    expect(count).toMatch(/^Identified [\d,]+ times?/);
    if (total !== undefined) expect(count).toContain(`Identified ${total} times`);
    expect(count.includes(badge)).toBe(demo);
  });

  test("each related song's seeded count is labelled demo data", async () => {
    const track = await seededTrack(2);
    const page = await html(`/track/${track.key}/${track.alias}`);
    const notes = [...page.matchAll(/<span class="track-row__note">(.*?)<\/span><\/span>/gs)].map(
      (match) => match[1] ?? "",
    );
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes)
      expect(note).toMatch(/^Identified [\d,]+ times?<!-- --> <span class="demo-badge">Demo data$/);
  });
});

describe("a chart page", () => {
  test.each([
    { name: "ranked by seeded counts", seeded: true },
    { name: "with no seeded counts", seeded: false },
  ])("$name says so: $seeded", async ({ seeded }) => {
    const country = await env.DB.prepare(
      "SELECT id, url_name FROM countries WHERE id IN (SELECT country FROM country_tag_counts) ORDER BY id LIMIT 1 OFFSET ?",
    )
      .bind(seeded ? 0 : 1)
      .first<{ id: string; url_name: string }>();
    if (!country) throw new Error("the catalogue has no chart country");
    if (!seeded)
      await env.DB.prepare("DELETE FROM country_tag_counts WHERE country = ?").bind(country.id).run();
    const page = await html(`/top-200/${country.url_name}`);
    const head = /<header class="chart-head">(.*?)<\/header>/s.exec(page)?.[1] ?? "";
    expect(head).toMatch(/Updated [^<]+<\/time>/);
    expect(head.includes(badge)).toBe(seeded);
  });
});
