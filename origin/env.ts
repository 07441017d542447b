import type { Hono } from "hono";
import type { MailBinding } from "./mail";

/** Bindings the embedded origin uses. */
export type OriginEnv = {
  DB: D1Database;
  ASSETS: Fetcher;
  /** Cloudflare's `send_email` binding; with MAIL_FROM set, sign-in mail is really sent. */
  MAIL?: MailBinding;
  MAIL_FROM?: string;
};

export type OriginApp = Hono<{ Bindings: OriginEnv }>;
