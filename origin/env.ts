import type { Hono } from "hono";

/** Bindings the embedded origin uses. */
export type OriginEnv = {
  DB: D1Database;
  ASSETS: Fetcher;
};

export type OriginApp = Hono<{ Bindings: OriginEnv }>;
