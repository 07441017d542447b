import { expect, test } from "vitest";
import { loadBrowserFeatureConfig } from "#app/shell/browser/features.ts";
import {
  defaultFeatureConfig,
  evaluateFeatures,
  type FeatureContext,
  type FeatureControl,
  fnv1a32,
  isFeatureOn,
  isInRollout,
  loadFeatureConfig,
  parseFeatureConfig,
  rolloutBucket,
} from "#rules/feature-flags.ts";

function context(overrides: Partial<FeatureContext> = {}): FeatureContext {
  return {
    environment: "www",
    country: "GB",
    inid: "install-1",
    platform: "web",
    loggedin: false,
    userId: "web-id-1",
    ...overrides,
  };
}

function isOn(control: FeatureControl | undefined, overrides: Partial<FeatureContext> = {}): boolean {
  const features = evaluateFeatures(
    { featureflags: { flag: { data: { x: 1 }, control } } },
    context(overrides),
  );
  return isFeatureOn(features, "flag");
}

test.each([
  { name: "no control", control: undefined, context: {}, on: true },
  { name: "empty control", control: {}, context: {}, on: true },
  {
    name: "environment listed",
    control: { environments: ["www", "dev"] },
    context: { environment: "dev" },
    on: true,
  },
  { name: "environment not listed", control: { environments: ["cisd", "betasd"] }, context: {}, on: false },
  {
    name: "country listed, any case",
    control: { countries: ["gb", "IE"] },
    context: { country: "GB" },
    on: true,
  },
  { name: "country not listed", control: { countries: ["US"] }, context: {}, on: false },
  { name: "install id listed", control: { inids: ["install-1"] }, context: {}, on: true },
  { name: "install id not listed", control: { inids: ["install-2"] }, context: {}, on: false },
  { name: "no install id", control: { inids: ["install-1"] }, context: { inid: undefined }, on: false },
  {
    name: "platform listed",
    control: { platforms: ["android"] },
    context: { platform: "android" },
    on: true,
  },
  { name: "platform not listed", control: { platforms: ["ios", "android"] }, context: {}, on: false },
  { name: "login required, logged in", control: { loggedin: true }, context: { loggedin: true }, on: true },
  { name: "login required, anonymous", control: { loggedin: true }, context: {}, on: false },
  { name: "anonymous only, logged in", control: { loggedin: false }, context: { loggedin: true }, on: false },
  { name: "rollout 100", control: { rollout: 100 }, context: { userId: undefined }, on: true },
  { name: "rollout 0", control: { rollout: 0 }, context: {}, on: false },
  {
    name: "rollout 99.99 without a user id",
    control: { rollout: 99.99 },
    context: { userId: undefined },
    on: false,
  },
  {
    name: "every condition holds",
    control: { environments: ["www"], countries: ["GB"], platforms: ["web"], loggedin: false, rollout: 100 },
    context: {},
    on: true,
  },
  {
    name: "one of several conditions fails",
    control: { environments: ["www"], countries: ["GB"], platforms: ["ios"] },
    context: {},
    on: false,
  },
] satisfies {
  name: string;
  control: FeatureControl | undefined;
  context: Partial<FeatureContext>;
  on: boolean;
}[])("condition: $name → $on", ({ control, context: overrides, on }) => {
  expect(isOn(control, overrides)).toBe(on);
});

test("an on flag yields its data, an off flag is absent", () => {
  const features = evaluateFeatures(
    {
      featureflags: {
        lyrics: { data: { synced: true } },
        webrec: { data: true, control: { countries: ["US"] } },
      },
    },
    context(),
  );
  expect(features).toEqual({ lyrics: { synced: true } });
});

test("FNV-1a matches the published 32-bit test vectors", () => {
  expect(fnv1a32("")).toBe(0x811c9dc5);
  expect(fnv1a32("a")).toBe(0xe40c292c);
  expect(fnv1a32("foobar")).toBe(0xbf9cf968);
});

test("rollout 30 % of 10 000 ids includes 30 % ± 2 %", () => {
  let included = 0;
  for (let index = 0; index < 10_000; index++) {
    if (isInRollout("webrec", `web-${index}`, 30)) included++;
  }
  expect(included).toBeGreaterThanOrEqual(2800);
  expect(included).toBeLessThanOrEqual(3200);
});

/** UUID-shaped ids from a fixed-seed generator, so the test gives the same answer every run. */
function uuidLikeIds(count: number): string[] {
  let state = 12345;
  const hex = (length: number) =>
    Array.from({ length }, () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return ((state >>> 16) & 15).toString(16);
    }).join("");
  return Array.from({ length: count }, () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`);
}

test.each([1, 10, 50, 90])("rollout %i % of 10 000 UUID-shaped ids stays within ± 2 %", (percent) => {
  let included = 0;
  for (const id of uuidLikeIds(10_000)) {
    if (isInRollout("search", id, percent)) included++;
  }
  expect(Math.abs(included / 100 - percent)).toBeLessThanOrEqual(2);
});

// Pinned: the server, the browser and every release must put a user in the same bucket; a change
// of hash would silently move every user to another side of every running rollout.
test.each([
  { flag: "webrec", userId: "web-1", bucket: 48.84 },
  { flag: "search", userId: "3f1c2a9e-8d7b-4c1e-9a2f-0b5d6e7f8a9c", bucket: 55.4 },
  { flag: "lyrics", userId: "install-42", bucket: 18.72 },
])("bucket of $userId for $flag is $bucket", ({ flag, userId, bucket }) => {
  expect(rolloutBucket(flag, userId)).toBe(bucket);
});

test("a user's bucket is stable, and a larger rollout keeps everyone already in", () => {
  for (let index = 0; index < 500; index++) {
    const id = `user-${index}`;
    expect(rolloutBucket("flag", id)).toBe(rolloutBucket("flag", id));
    if (isInRollout("flag", id, 20)) expect(isInRollout("flag", id, 40)).toBe(true);
  }
});

test("flags roll out to different users (the hash is salted with the flag name)", () => {
  let both = 0;
  for (let index = 0; index < 10_000; index++) {
    const id = `web-${index}`;
    if (isInRollout("alpha", id, 50) && isInRollout("beta", id, 50)) both++;
  }
  // Independent halves overlap on about a quarter; the same half would overlap on a half.
  expect(both).toBeGreaterThan(2300);
  expect(both).toBeLessThan(2700);
});

test("parsing keeps good nodes and rejects nodes it does not understand", () => {
  const parsed = parseFeatureConfig({
    featureflags: {
      good: { data: 1, control: { rollout: 30 } },
      misspelt: { data: 1, control: { countrys: ["GB"] } },
      outOfRange: { data: 1, control: { rollout: 130 } },
      badEnvironment: { data: 1, control: { environments: ["prod"] } },
      notANode: "yes",
    },
  });
  expect(parsed.usable).toBe(true);
  expect(Object.keys(parsed.config.featureflags)).toEqual(["good"]);
  expect(parsed.rejected.sort()).toEqual(["badEnvironment", "misspelt", "notANode", "outOfRange"]);
});

test.each([
  { name: "null", json: null },
  { name: "text", json: "text" },
  { name: "an array", json: [] },
  { name: "another envelope", json: { flags: {} } },
  { name: "a list of flags", json: { featureflags: [{ data: 1 }] } },
])("an unusable payload ($name) gives the default config", ({ json }) => {
  expect(parseFeatureConfig(json)).toEqual({ config: defaultFeatureConfig, rejected: [], usable: false });
});

const goodConfig = { featureflags: { lyrics: { data: true } } };

test("the browser uses the config the server rendered with, without fetching", async () => {
  let fetched = 0;
  const loaded = await loadFeatureConfig({
    supplied: goodConfig,
    fetchConfig: async () => {
      fetched++;
      return goodConfig;
    },
  });
  expect(loaded).toEqual({ config: goodConfig, source: "server", rejected: [] });
  expect(fetched).toBe(0);
});

test.each([
  { name: "fetched", fetchConfig: async () => goodConfig, source: "remote", config: goodConfig },
  {
    name: "fetch fails",
    fetchConfig: async () => {
      throw new Error("offline");
    },
    source: "default",
    config: defaultFeatureConfig,
  },
  {
    name: "fetched garbage",
    fetchConfig: async () => "<html>",
    source: "default",
    config: defaultFeatureConfig,
  },
])("without a server config: $name → $source", async ({ fetchConfig, source, config }) => {
  const loaded = await loadFeatureConfig({ fetchConfig });
  expect(loaded.source).toBe(source);
  expect(loaded.config).toEqual(config);
});

test.each([
  { name: "the website", app: undefined, path: "/services/config/features.json" },
  { name: "an app variant", app: "-android", path: "/services/config/features-android.json" },
])("the browser asks $path for $name, same-origin", async ({ app, path }) => {
  const requested: { url: string; credentials: RequestCredentials | undefined }[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    requested.push({ url: String(input), credentials: init.credentials });
    return Response.json(goodConfig);
  }) as typeof globalThis.fetch;
  const loaded = await loadBrowserFeatureConfig({ app, request: { fetch } });
  expect(loaded).toEqual({ config: goodConfig, source: "remote", rejected: [] });
  expect(requested).toEqual([{ url: path, credentials: "same-origin" }]);
});

test("the browser falls back to the default config when the request fails", async () => {
  const fetch = (async () => new Response("nope", { status: 503 })) as typeof globalThis.fetch;
  expect(await loadBrowserFeatureConfig({ request: { fetch } })).toEqual({
    config: defaultFeatureConfig,
    source: "default",
    rejected: [],
  });
});

test("a supplied config that is unusable is replaced by the fetched one", async () => {
  const loaded = await loadFeatureConfig({ supplied: { nope: 1 }, fetchConfig: async () => goodConfig });
  expect(loaded.source).toBe("remote");
});
