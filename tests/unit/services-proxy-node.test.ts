import * as v from "valibot";
import { expect, test } from "vitest";
import { createServicesProxy } from "../../edge/services";

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
