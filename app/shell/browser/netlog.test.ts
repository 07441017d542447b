import { expect, test } from "vitest";
import { createNetlog, isNetlogEnabled } from "#app/shell/browser/netlog.ts";
import { featureNames } from "#rules/feature-names.ts";

test.each([
  { url: "https://tunewave.test/track/1?netlog=1", enabled: true },
  { url: "/de/charts?a=b&netlog=1", enabled: true },
  { url: "https://tunewave.test/?netlog=0", enabled: false },
  { url: "https://tunewave.test/?netlog=true", enabled: false },
  { url: "https://tunewave.test/", enabled: false },
])("netlog in $url, the flag on → $enabled", ({ url, enabled }) => {
  expect(isNetlogEnabled(url, [featureNames.netlog])).toBe(enabled);
});

test("netlog=1 does nothing where the netlog flag is off (the served config: internal environments only)", () => {
  expect(isNetlogEnabled("https://tunewave.test/track/1?netlog=1", [featureNames.search])).toBe(false);
});

function recordingFetch(fail = false) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    if (fail) throw new TypeError("Failed to fetch");
    return new Response(null, { status: 204 });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

test("with netlog=1 a log line is POSTed as text, under its tag", async () => {
  const server = recordingFetch();
  const netlog = createNetlog({ enabled: true, fetch: server.fetch });
  await netlog.log("bridge", "about", { os: { APILevel: 30 } }, 7);
  await netlog.log(undefined, "plain");
  expect(server.calls.map((call) => [call.url, call.init.method, call.init.body])).toEqual([
    ["/services/log/bridge", "POST", 'about {"os":{"APILevel":30}} 7'],
    ["/services/log", "POST", "plain"],
  ]);
  expect(new Headers(server.calls[0]?.init.headers).get("content-type")).toContain("text/plain");
});

test("errors are logged with their stack, tags are escaped", async () => {
  const server = recordingFetch();
  await createNetlog({ enabled: true, fetch: server.fetch }).log("a/b", new Error("boom"));
  expect(server.calls[0]?.url).toBe("/services/log/a%2Fb");
  expect(String(server.calls[0]?.init.body)).toMatch(/^Error: boom\n/);
});

test("without netlog=1 nothing is sent", async () => {
  const server = recordingFetch();
  await createNetlog({ enabled: false, fetch: server.fetch }).log("x", "y");
  expect(server.calls).toEqual([]);
});

test("a failed log POST is swallowed", async () => {
  const server = recordingFetch(true);
  await expect(createNetlog({ enabled: true, fetch: server.fetch }).log("x", "y")).resolves.toBeUndefined();
  expect(server.calls).toHaveLength(1);
});
