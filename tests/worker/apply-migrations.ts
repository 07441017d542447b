import { applyD1Migrations, env } from "cloudflare:test";
import { splitSeed } from "#origin/catalog/sql.ts";
import seed from "../../origin/catalog/dist/seed.sql?raw";

// Runs before each test file: the embedded origin's schema in a fresh D1, then the catalogue seed
// (origin/catalog/dist/seed.sql, built by `npm run catalog`; `npm test` builds it when missing), and
// the recognition store's schema (its rows: tests/worker/recognition-store.ts).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.RECOGNITION, env.TEST_RECOGNITION_MIGRATIONS);
await env.DB.batch(splitSeed(seed).map((statement) => env.DB.prepare(statement)));
