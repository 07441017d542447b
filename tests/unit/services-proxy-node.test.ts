import * as v from "valibot";
import { expect, test } from "vitest";
import { createServicesProxy } from "#edge/services/index.ts";

// Outside workerd there is no Cache API: the proxy runs on its memory tier alone.
test("in plain Node the proxy caches in memory and parses", async () => {
  let calls = 0;
  const proxy = createServicesProxy({
    timeoutMs: 1000,
    upstream: async () => {
      calls += 1;
      return Response.json({ count: calls }, { headers: { "cache-control": "max-age=60" } });
    },
  });
  const schema = v.object({ count: v.number() });
  expect(await proxy.getJson("/services/tagcount/1", schema)).toEqual({ count: 1 });
  expect(await proxy.getJson("/services/tagcount/1", schema)).toEqual({ count: 1 });
  const response = await proxy.handle(new Request("https://tunewave.test/services/tagcount/1"));
  expect(response.headers.get("x-cache")).toBe("hit");
  expect(calls).toBe(1);
});

// A stored answer is validated once per schema (docs/decisions/056-cheaper-renders.md): the same
// value for every reader, frozen so that no reader can change another's.
test("a stored answer's value is made once per schema, frozen; an unstored one each time", async () => {
  const proxy = createServicesProxy({
    timeoutMs: 1000,
    upstream: async (request) =>
      Response.json(
        { items: [{ name: "a" }] },
        {
          headers: {
            "cache-control": new URL(request.url).pathname.endsWith("/2") ? "no-store" : "max-age=60",
          },
        },
      ),
  });
  let validated = 0;
  const schema = v.object({
    items: v.array(
      v.object({
        name: v.pipe(
          v.string(),
          v.check(() => ++validated > 0),
        ),
      }),
    ),
  });
  const first = await proxy.getJson("/services/tagcount/1", schema);
  const second = await proxy.getJson("/services/tagcount/1", schema);
  expect(second).toBe(first);
  expect(validated).toBe(1);
  expect(Object.isFrozen(first.items[0])).toBe(true);
  expect(() => {
    (first.items as { name: string }[]).push({ name: "b" });
  }).toThrow(TypeError);
  // Another schema over the same bytes is its own value.
  expect(await proxy.getJson("/services/tagcount/1", v.object({ items: v.array(v.unknown()) }))).not.toBe(
    first,
  );

  // An answer the caches did not keep is new bytes each time: validated again.
  const unstored = await proxy.getJson("/services/tagcount/2", schema);
  expect(await proxy.getJson("/services/tagcount/2", schema)).not.toBe(unstored);
  expect(validated).toBe(3);
});
