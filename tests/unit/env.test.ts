import { expect, test } from "vitest";
import {
  cloudKitConfigOf,
  type Env,
  readConfig,
  recognitionShards,
  robotCheckOf,
  siteOriginOf,
  siteUrl,
  streamingConfigOf,
  visitorVoucherKeysOf,
} from "#rules/env.ts";

/** A stand-in D1 binding: the configuration only asks that it is there. */
function database(name: string): D1Database {
  return { name } as unknown as D1Database;
}

/** A deployment's bindings: the two required settings, and `vars` over them. */
function env(vars: Partial<Env>): Env {
  return {
    SITE_ORIGIN: "https://www.tunewave.example",
    MAIL_TRANSPORT: "outbox",
    RECOGNIZER: { match: async () => null, summary: async () => null },
    ...vars,
  } as Env;
}

test.each([
  [undefined, "www"],
  ["www", "www"],
  ["betasd", "betasd"],
  ["dev", "dev"],
])("SITE_ENV=%s is the feature environment %s", (siteEnv, environment) => {
  expect(readConfig(env({ SITE_ENV: siteEnv })).SITE_ENV).toBe(environment);
});

test.each([
  [{ SITE_ENV: "production" }, /SITE_ENV/],
  [{ SERVICES_ORIGIN: "not a url" }, /SERVICES_ORIGIN/],
  [{ VISITOR_ID_KEYS: "k1:too-short" }, /VISITOR_ID_KEYS/],
  [{ SERVICES_TIMEOUT_MS: "50" }, /SERVICES_TIMEOUT_MS/],
  [{ SITE_ORIGIN: "www.tunewave.example" }, /SITE_ORIGIN/],
  [{ SITE_ORIGIN: "https://www.tunewave.example/" }, /SITE_ORIGIN/],
  [{ SITE_ORIGIN: "https://www.tunewave.example/en" }, /SITE_ORIGIN/],
  [
    { TURNSTILE_SITE_KEY: "1x00000000000000000000AA" },
    /TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY go together/,
  ],
  [{ TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA" }, /go together/],
  [
    { TURNSTILE_SITE_KEY: "<script>", TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA" },
    /TURNSTILE_SITE_KEY/,
  ],
] as const)("a bad environment %j fails loudly at the first request", (vars, message) => {
  expect(() => readConfig(env(vars))).toThrow(message);
});

test("defaults: the embedded origin, 8 s upstream timeout, no cloud sign-in, the test-mode consent page, no visitor vouchers", () => {
  const config = readConfig(env({}));
  expect(config).toEqual({
    SERVICES_ORIGIN: "",
    SERVICES_TIMEOUT_MS: 8000,
    SITE_ENV: "www",
    SITE_ORIGIN: "https://www.tunewave.example",
    MAIL_TRANSPORT: "outbox",
    ICLOUD_CONTAINER: "",
    ICLOUD_API_TOKEN: "",
    ICLOUD_ENVIRONMENT: "production",
    STREAMING_CLIENT_ID: "tunewave-web",
    STREAMING_AUTHORIZE_URL: "",
    TURNSTILE_SITE_KEY: "",
    TURNSTILE_SECRET_KEY: "",
    VISITOR_ID_KEYS: [],
  });
  expect(visitorVoucherKeysOf(config)).toBeNull();
  expect(cloudKitConfigOf(config)).toBeNull();
  expect(robotCheckOf(config)).toBeNull();
  expect(streamingConfigOf(config)).toEqual({
    clientId: "tunewave-web",
    authorizeUrl: "/applemusic/signin/mockactivate",
  });
});

test("a configured authorization page is the streaming service's own", () => {
  const config = readConfig(
    env({ STREAMING_CLIENT_ID: "site.prod", STREAMING_AUTHORIZE_URL: "https://provider.example/authorize" }),
  );
  expect(streamingConfigOf(config)).toEqual({
    clientId: "site.prod",
    authorizeUrl: "https://provider.example/authorize",
  });
  expect(() => readConfig(env({ STREAMING_AUTHORIZE_URL: "not a url" }))).toThrow("Invalid environment");
  expect(() => readConfig(env({ STREAMING_CLIENT_ID: "has spaces" }))).toThrow("Invalid environment");
});

test.each([
  [
    "a container that is not iCloud's",
    { ICLOUD_CONTAINER: "com.example.app", ICLOUD_API_TOKEN: "a".repeat(64) },
  ],
  ["an API token that is not one", { ICLOUD_CONTAINER: "iCloud.com.example", ICLOUD_API_TOKEN: "secret" }],
  ["an unknown CloudKit environment", { ICLOUD_ENVIRONMENT: "staging" }],
])("the cloud sign-in settings are checked: %s fails loudly", (_name, vars) => {
  expect(() => readConfig(env(vars))).toThrow("Invalid environment");
});

test("a container and its API token make the cloud sign-in available", () => {
  const config = readConfig(
    env({ ICLOUD_CONTAINER: "iCloud.com.tunewave.web", ICLOUD_API_TOKEN: "f".repeat(64) }),
  );
  expect(cloudKitConfigOf(config)).toEqual({
    container: "iCloud.com.tunewave.web",
    apiToken: "f".repeat(64),
    environment: "production",
  });
});

test.each([
  ["https://www.tunewave.example", "https://www.tunewave.example"],
  ["http://localhost:8787", "http://localhost:8787"],
  ["https://www.tunewave.example:443", "https://www.tunewave.example"],
])("SITE_ORIGIN=%j: absolute URLs start with %s, whatever the request's Host", (origin, expected) => {
  expect(siteOriginOf(readConfig(env({ SITE_ORIGIN: origin })))).toBe(expected);
  expect(siteUrl({ SITE_ORIGIN: origin }, "/validate-email/web?key=1").href).toBe(
    `${expected}/validate-email/web?key=1`,
  );
});

test.each([[undefined], [""], ["www.tunewave.example"], ["https://www.tunewave.example/en"]])(
  "SITE_ORIGIN=%j is refused where a URL is built: no fallback to the request",
  (origin) => {
    expect(() => siteOriginOf({ SITE_ORIGIN: origin })).toThrow(/SITE_ORIGIN|Invalid environment/);
  },
);

test.each([["//evil.example"], ["https://evil.example/"], ["relative"]])(
  "siteUrl takes a path of this site only: %j is refused",
  (path) => {
    expect(() => siteUrl({ SITE_ORIGIN: "https://www.tunewave.example" }, path)).toThrow();
  },
);

test.each([
  ["no SITE_ORIGIN", { MAIL_TRANSPORT: "outbox" }, /SITE_ORIGIN/],
  [
    "no mail transport (a deployment that forgot it)",
    { SITE_ORIGIN: "https://www.tunewave.example" },
    /MAIL_TRANSPORT/,
  ],
  [
    "send_email without its binding",
    {
      SITE_ORIGIN: "https://www.tunewave.example",
      MAIL_TRANSPORT: "send_email",
      MAIL_FROM: "site@tunewave.example",
    },
    /MAIL binding/,
  ],
  [
    "an unknown transport",
    { SITE_ORIGIN: "https://www.tunewave.example", MAIL_TRANSPORT: "smtp" },
    /MAIL_TRANSPORT/,
  ],
] as const)("%s fails the first request with a configuration error", (_name, vars, message) => {
  expect(() => readConfig(vars as Env)).toThrow(message);
});

test("VISITOR_ID_KEYS: the signing key first, then the keys that still verify", () => {
  const keys = visitorVoucherKeysOf(
    readConfig(env({ VISITOR_ID_KEYS: `new:${"n".repeat(32)},old:${"o".repeat(32)}` })),
  );
  expect(keys?.map((key) => key.id)).toEqual(["new", "old"]);
});

test("both Turnstile keys configure the sign-in's robot check", () => {
  const config = readConfig(
    env({
      TURNSTILE_SITE_KEY: "0x4AAAAAAAB1cDeFgHiJkLmN",
      TURNSTILE_SECRET_KEY: "0x4AAAAAAAB1cDeFgHiJkLmN_secret-Value",
    }),
  );
  expect(robotCheckOf(config)).toEqual({
    siteKey: "0x4AAAAAAAB1cDeFgHiJkLmN",
    secretKey: "0x4AAAAAAAB1cDeFgHiJkLmN_secret-Value",
  });
});

test("the recognition store is one database unless RECOGNITION_SHARDS names more, each bound", () => {
  const first = database("tunewave-recognition");
  const second = database("tunewave-recognition-1");
  const third = database("tunewave-recognition-2");
  expect(recognitionShards({ RECOGNITION: first, RECOGNITION_SHARDS: undefined })).toHaveLength(1);
  expect(recognitionShards({ RECOGNITION: first })).toEqual([first]);
  expect(
    recognitionShards({
      RECOGNITION: first,
      RECOGNITION_1: second,
      RECOGNITION_2: third,
      RECOGNITION_SHARDS: "3",
    }),
  ).toEqual([first, second, third]);
  // A shard bound but not counted is not read.
  expect(recognitionShards({ RECOGNITION: first, RECOGNITION_1: second, RECOGNITION_SHARDS: "1" })).toEqual([
    first,
  ]);
});

test.each([
  [{ RECOGNITION_SHARDS: "0" }, /RECOGNITION_SHARDS/],
  [{ RECOGNITION_SHARDS: "17" }, /RECOGNITION_SHARDS/],
  [{ RECOGNITION_SHARDS: "two" }, /RECOGNITION_SHARDS/],
  [{ RECOGNITION_SHARDS: "1.5" }, /RECOGNITION_SHARDS/],
  [{ RECOGNITION_SHARDS: "2" }, /needs the D1 binding RECOGNITION_1/],
  [{ RECOGNITION_SHARDS: "3", RECOGNITION_1: database("tunewave-recognition-1") }, /RECOGNITION_2/],
  [{ RECOGNITION: undefined }, /needs the D1 binding RECOGNITION\b/],
] as const)("a recognition store configured as %j fails the recognizer's match", (vars, message) => {
  expect(() => recognitionShards({ RECOGNITION: database("tunewave-recognition"), ...vars })).toThrow(
    message,
  );
});

test("the embedded origin needs the recognizer's binding; a remote origin answers the match service without it", () => {
  expect(() => readConfig(env({ RECOGNIZER: undefined }))).toThrow(/RECOGNIZER/);
  expect(() =>
    readConfig(env({ SERVICES_ORIGIN: "https://origin.example", RECOGNIZER: undefined })),
  ).not.toThrow();
});
