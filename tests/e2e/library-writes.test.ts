import * as v from "valibot";
import { expect, inject, test } from "vitest";
import { signedInVisitor } from "#bench/pages.ts";
import { catalogueTracksPageSchema } from "#rules/schemas/catalogue.ts";

// Tag writes under concurrency against the running site (wrangler dev, its local D1): a retried
// request never doubles a tag, and concurrent writes lose nothing. Here rather than in the worker
// tests, whose per-test storage isolation trips over SQLite's -shm file after a burst of
// concurrent writes (workers-sdk #11031).

const baseURL = inject("baseURL");

async function trackKeyOfTheCatalogue(): Promise<string> {
  const answer = await fetch(`${baseURL}/services/catalogue/v1/tracks?limit=1`);
  const page = v.parse(catalogueTracksPageSchema, await answer.json());
  const key = page.data[0]?.key;
  if (key === undefined) throw new Error("the catalogue lists no track");
  return key;
}

test("50 concurrent writes of one recognition make one tag; 50 of different ones make 50", async () => {
  const cookie = await signedInVisitor(baseURL, []);
  const trackKey = await trackKeyOfTheCatalogue();
  const write = (recognitionId: string, tagTime: number) =>
    fetch(`${baseURL}/services/account/tags`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ trackKey, recognitionId, tagTime }),
    }).then(async (answer) => ({
      status: answer.status,
      body: (await answer.json()) as { tagid: string; count: number },
    }));

  const same = await Promise.all(Array.from({ length: 50 }, () => write("retried", Date.UTC(2026, 4, 1))));
  expect(same.filter((answer) => answer.status === 201)).toHaveLength(1);
  expect(same.filter((answer) => answer.status === 200)).toHaveLength(49);
  expect(new Set(same.map((answer) => answer.body.tagid)).size).toBe(1);

  const many = await Promise.all(
    Array.from({ length: 50 }, (_, i) => write(`burst-${i}`, Date.UTC(2026, 4, 2) + i)),
  );
  expect(many.every((answer) => answer.status === 201)).toBe(true);
  expect(new Set(many.map((answer) => answer.body.tagid)).size).toBe(50);
  const count = await fetch(`${baseURL}/services/account/tags/count`, { headers: { cookie } });
  expect(await count.json()).toEqual({ count: 51 });
});
