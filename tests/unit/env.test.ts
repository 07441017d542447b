import { expect, test } from "vitest";
import { type Env, readConfig } from "../../edge/env";

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
] as const)("a bad environment %j fails loudly at the first request", (vars, message) => {
  expect(() => readConfig(env(vars))).toThrow(message);
});

test("defaults: the embedded origin, 8 s upstream timeout", () => {
  expect(readConfig(env({}))).toEqual({ SERVICES_ORIGIN: "", SERVICES_TIMEOUT_MS: 8000, SITE_ENV: "www" });
});
