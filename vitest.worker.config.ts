import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import {
  defineWorkersConfig,
  defineWorkersProject,
  readD1Migrations,
} from "@cloudflare/vitest-pool-workers/config";
import { UNSAFE_flatRoutes } from "@remix-run/dev";
import { unstable_readConfig } from "wrangler";
import { localVars } from "#scripts/local-vars.mjs";

/**
 * "Network connection lost" between tests (decision 031): before and after every test the pool asks
 * Miniflare's loopback server (Node's http server, in this process) to push or pop the isolated
 * storage, over a keep-alive connection of workerd's. Node closes a connection idle for 5 s
 * (`keepAliveTimeout`), and a test that ran longer (or a loaded machine) hands workerd a connection
 * Node is closing at that moment: workerd does not retry the DELETE, and the file fails. With no
 * idle timeout the connection stays open for workerd's next call; the server is closed with the pool.
 */
const createServer = http.createServer;
http.createServer = ((...args: Parameters<typeof http.createServer>) => {
  const server = createServer(...args);
  server.keepAliveTimeout = 0;
  return server;
}) as typeof http.createServer;

/**
 * Every page route that takes a form (exports an `action`), read from the app's own routes as
 * Remix reads them, for the cross-site matrix (tests/worker/cross-site-matrix.test.ts): a new
 * write cannot be left out of it. Parameters are filled with "x"; optional segments are left out.
 */
function pageActions(): { path: string; file: string }[] {
  const appDirectory = path.join(import.meta.dirname, "app");
  return Object.values(UNSAFE_flatRoutes(appDirectory, ["**/.*", "**/*.test.*"]))
    .filter((route) =>
      /export\s+(async\s+)?(function|const)\s+action\b/.test(
        readFileSync(path.join(appDirectory, route.file), "utf8"),
      ),
    )
    .map((route) => {
      const segments = (route.path ?? "")
        .split("/")
        .filter((segment) => segment !== "" && !segment.endsWith("?"))
        .map((segment) => (segment.startsWith(":") || segment === "*" ? "x" : segment));
      return { path: `/${segments.join("/")}${route.index ? "?index" : ""}`, file: route.file };
    });
}

// Request handling in workerd: the real worker as built (wrangler.toml's main, the Remix server
// build that `npm run build` makes) through SELF.fetch, with the
// embedded origin's D1 migrated and seeded from the catalogue before each test file (and the
// recognition store migrated; the files that match load it, see tests/worker/recognition-store.ts).
export default defineWorkersConfig(async () => {
  const recognizerConfig = unstable_readConfig({ config: "./recognizer/wrangler.toml" });
  const recognitionDatabaseId = recognizerConfig.d1_databases.find(
    (database: { binding: string; database_id?: string }) => database.binding === "RECOGNITION",
  )?.database_id;
  if (!recognitionDatabaseId) throw new Error("recognizer/wrangler.toml binds no RECOGNITION database");
  const recognizerWorker = {
    name: recognizerConfig.name,
    modules: true,
    scriptPath: path.join(import.meta.dirname, "build/recognizer/index.js"),
    compatibilityDate: recognizerConfig.compatibility_date,
    compatibilityFlags: recognizerConfig.compatibility_flags,
    d1Databases: { RECOGNITION: { id: recognitionDatabaseId } },
  };
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "origin/migrations"));
  const recognitionMigrations = await readD1Migrations(
    path.join(import.meta.dirname, "recognizer/migrations"),
  );
  /**
   * One project of the layer. `undeliveredQueues`: producer bindings sent to a queue no consumer
   * reads. A consumer (identifications, beacons) writes D1 seconds after a match, in whatever test runs
   * then, and a write in flight when the pool pops that test's isolated storage fails the file
   * ("unable to pop D1 storage", seen in 2 of 6 runs of library.test.ts): only the file about
   * the queue has it delivered.
   */
  const workersProject = (
    name: string,
    files: { include: string[]; exclude?: string[] },
    undeliveredQueues: Record<string, { queueName: string }> = {},
    extraBindings: Record<string, string> = {},
  ) =>
    defineWorkersProject({
      test: {
        name,
        ...files,
        setupFiles: ["tests/worker/apply-migrations.ts"],
        // The built worker's modules are .mjs (scripts/build-worker-modules.mjs), which Vite would
        // leave for workerd to import from a path it cannot resolve; tests/worker/built-worker.ts
        // imports them through Vite like any other module.
        server: { deps: { inline: [/\/build\/worker\//] } },
        // A ceiling, not a speed target (those are in `npm run bench`): one test here may make 20+
        // sequential D1 writes, which under a loaded machine outlasts vitest's 5 s default. A test
        // that times out leaves writes in flight, and the pool's isolated storage then fails the
        // whole file (workers-sdk #11031), so the ceiling is set well above the slowest test.
        testTimeout: 30_000,
        poolOptions: {
          workers: {
            // One worker per test file. In one shared worker the pool wraps its entrypoint class's
            // prototype in one more Proxy on every SELF.fetch (test-internal.mjs
            // createProxyPrototypeClass), so after a few thousand requests a property lookup
            // overflows the stack ("Maximum call stack size exceeded" in later files).
            singleWorker: false,
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              queueProducers: undeliveredQueues,
              // The recognizer beside the site, as built (build/recognizer, decision 052), bound as
              // wrangler.toml's [[services]] says. The test worker binds its store too (the same
              // database, RECOGNITION), to load it and to break it; and databases for the store in 2
              // and 3 shards (tests/worker/webrec.test.ts), which the recognizer does not count.
              workers: [recognizerWorker],
              d1Databases: {
                RECOGNITION: { id: recognitionDatabaseId },
                ...Object.fromEntries(
                  [1, 2, 3].map((shard) => [`RECOGNITION_${shard}`, { id: `test-recognition-${shard}` }]),
                ),
              },
              // The pool does not give the worker wrangler.toml's `[[ratelimits]]` (vitest-pool-workers
              // 0.8): the same limiters, read from it, so the tests meet the deployed numbers.
              ratelimits: Object.fromEntries(
                unstable_readConfig({ config: "./wrangler.toml" }).ratelimits.map(
                  (limiter: { name: string; simple: { limit: number; period: 10 | 60 } }) => [
                    limiter.name,
                    { simple: limiter.simple },
                  ],
                ),
              ),
              bindings: {
                TEST_MIGRATIONS: migrations,
                TEST_RECOGNITION_MIGRATIONS: recognitionMigrations,
                TEST_PAGE_ACTIONS: pageActions(),
                // The web sign-in provider, against the stand-in issuer that
                // tests/worker/web-provider.test.ts serves through fetchMock.
                GOOGLE_CLIENT_ID: "tunewave-web.apps.test",
                GOOGLE_CLIENT_SECRET: "test-client-secret",
                OIDC_ISSUER: "https://issuer.test",
                // The site's origin (decision 030: never the request's): the tests ask at this address,
                // and a request from anywhere else is another site.
                SITE_ORIGIN: "https://tunewave.test",
                // The local outbox and the visitor vouchers' local key: no deployment's.
                ...localVars,
                ...extraBindings,
              },
            },
          },
        },
      },
    });
  // The files about the queues, which have their messages delivered; everywhere else they are not.
  const queueFiles = [
    "tests/worker/identifications.test.ts",
    "tests/worker/origin-sinks.test.ts",
    "tests/worker/visit-params.test.ts",
  ];
  // The file about the sign-in's robot check, with Turnstile configured (its testing keys); every
  // other file signs in without one.
  const robotCheckFiles = ["tests/worker/robot-check.test.ts"];
  return {
    test: {
      projects: [
        workersProject(
          "worker",
          { include: ["tests/worker/**/*.test.ts"], exclude: [...queueFiles, ...robotCheckFiles] },
          {
            IDENTIFICATIONS: { queueName: "tunewave-identifications-undelivered" },
            BEACONS: { queueName: "tunewave-beacons-undelivered" },
          },
        ),
        workersProject("worker-queues", { include: queueFiles }),
        workersProject(
          "worker-robot-check",
          { include: robotCheckFiles },
          {
            IDENTIFICATIONS: { queueName: "tunewave-identifications-undelivered" },
            BEACONS: { queueName: "tunewave-beacons-undelivered" },
          },
          {
            TURNSTILE_SITE_KEY: "1x00000000000000000000AA",
            TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA",
          },
        ),
      ],
    },
  };
});
