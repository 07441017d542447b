import { describe, expect, test } from "vitest";
import { parseCacheControl, planStorage, type StorageInput } from "#edge/services/cache.ts";

describe("parseCacheControl", () => {
  const cases: { header: string | null; expected: Partial<ReturnType<typeof parseCacheControl>> }[] = [
    { header: null, expected: { maxAge: undefined, sMaxAge: undefined, noStore: false, private: false } },
    { header: "max-age=60", expected: { maxAge: 60 } },
    { header: "Max-Age=60, S-MAXAGE=120", expected: { maxAge: 60, sMaxAge: 120 } },
    { header: 'max-age="30"', expected: { maxAge: 30 } },
    { header: "max-age=abc", expected: { maxAge: 0 } },
    { header: "max-age=-5", expected: { maxAge: 0 } },
    { header: "public, max-age=60, stale-if-error=300", expected: { public: true, staleIfError: 300 } },
    { header: 'private="set-cookie"', expected: { private: true } },
    { header: "no-store", expected: { noStore: true } },
    { header: 'no-cache="x-a"', expected: { noCache: true } },
    { header: "proxy-revalidate", expected: { mustRevalidate: true } },
    { header: "must-revalidate", expected: { mustRevalidate: true } },
  ];
  for (const { header, expected } of cases) {
    test(String(header), () => {
      expect(parseCacheControl(header)).toMatchObject(expected);
    });
  }
});

describe("planStorage", () => {
  function input(headers: Record<string, string>, overrides: Partial<StorageInput> = {}): StorageInput {
    return {
      status: 200,
      headers: new Headers(headers),
      defaultTtlSeconds: 60,
      staleIfErrorSeconds: 86_400,
      ...overrides,
    };
  }

  const cases: { name: string; input: StorageInput; expected: ReturnType<typeof planStorage> }[] = [
    {
      name: "no header: default",
      input: input({}),
      expected: { store: true, ttlSeconds: 60, staleSeconds: 86_400 },
    },
    {
      name: "max-age",
      input: input({ "cache-control": "max-age=10" }),
      expected: { store: true, ttlSeconds: 10, staleSeconds: 86_400 },
    },
    {
      name: "s-maxage wins",
      input: input({ "cache-control": "max-age=10, s-maxage=20" }),
      expected: { store: true, ttlSeconds: 20, staleSeconds: 86_400 },
    },
    {
      name: "age is subtracted",
      input: input({ "cache-control": "max-age=10", age: "4" }),
      expected: { store: true, ttlSeconds: 6, staleSeconds: 86_400 },
    },
    {
      name: "stale-if-error",
      input: input({ "cache-control": "max-age=10, stale-if-error=30" }),
      expected: { store: true, ttlSeconds: 10, staleSeconds: 30 },
    },
    {
      name: "must-revalidate: no stale",
      input: input({ "cache-control": "max-age=10, must-revalidate" }),
      expected: { store: true, ttlSeconds: 10, staleSeconds: 0 },
    },
    {
      name: "status 201",
      input: input({}, { status: 201 }),
      expected: { store: false, reason: "status 201" },
    },
    {
      name: "status 404",
      input: input({}, { status: 404 }),
      expected: { store: false, reason: "status 404" },
    },
    {
      name: "set-cookie",
      input: input({ "set-cookie": "a=1" }),
      expected: { store: false, reason: "set-cookie" },
    },
    { name: "vary", input: input({ vary: "Accept-Language" }), expected: { store: false, reason: "vary" } },
    { name: "vary *", input: input({ vary: "*" }), expected: { store: false, reason: "vary" } },
    {
      name: "vary accept-encoding",
      input: input({ vary: "accept-encoding" }),
      expected: { store: true, ttlSeconds: 60, staleSeconds: 86_400 },
    },
    {
      name: "no-store",
      input: input({ "cache-control": "no-store" }),
      expected: { store: false, reason: "no-store" },
    },
    {
      name: "private",
      input: input({ "cache-control": "private, max-age=60" }),
      expected: { store: false, reason: "private" },
    },
    {
      name: "no-cache",
      input: input({ "cache-control": "no-cache" }),
      expected: { store: false, reason: "no-cache" },
    },
    {
      name: "max-age=0",
      input: input({ "cache-control": "max-age=0" }),
      expected: { store: false, reason: "no lifetime left" },
    },
    {
      name: "default lifetime 0 turns the default off",
      input: input({}, { defaultTtlSeconds: 0 }),
      expected: { store: false, reason: "no lifetime left" },
    },
  ];
  for (const { name, input: given, expected } of cases) {
    test(name, () => {
      expect(planStorage(given)).toEqual(expected);
    });
  }
});
