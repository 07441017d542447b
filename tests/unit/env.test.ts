import { expect, test } from "vitest";
import { cloudKitConfigOf, type Env, readConfig, siteOriginOf, streamingConfigOf } from "../../edge/env";

function env(vars: Partial<Env>): Env {
  return vars as Env;
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
  [{ SERVICES_TIMEOUT_MS: "50" }, /SERVICES_TIMEOUT_MS/],
  [{ SITE_ORIGIN: "www.tunewave.example" }, /SITE_ORIGIN/],
  [{ SITE_ORIGIN: "https://www.tunewave.example/" }, /SITE_ORIGIN/],
  [{ SITE_ORIGIN: "https://www.tunewave.example/en" }, /SITE_ORIGIN/],
] as const)("a bad environment %j fails loudly at the first request", (vars, message) => {
  expect(() => readConfig(env(vars))).toThrow(message);
});

test("defaults: the embedded origin, 8 s upstream timeout, no cloud sign-in, the test-mode consent page", () => {
  const config = readConfig(env({}));
  expect(config).toEqual({
    SERVICES_ORIGIN: "",
    SERVICES_TIMEOUT_MS: 8000,
    SITE_ENV: "www",
    SITE_ORIGIN: "",
    ICLOUD_CONTAINER: "",
    ICLOUD_API_TOKEN: "",
    ICLOUD_ENVIRONMENT: "production",
    STREAMING_CLIENT_ID: "tunewave-web",
    STREAMING_AUTHORIZE_URL: "",
  });
  expect(cloudKitConfigOf(config)).toBeNull();
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
  ["", "http://127.0.0.1:8787/track/1", "http://127.0.0.1:8787"],
  ["https://www.tunewave.example", "http://evil.example/track/1", "https://www.tunewave.example"],
])(
  "SITE_ORIGIN=%j: absolute URLs for %s start with %s, never the request's Host",
  (origin, url, expected) => {
    expect(siteOriginOf(readConfig(env({ SITE_ORIGIN: origin })), new Request(url))).toBe(expected);
  },
);
