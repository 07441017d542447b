// The variables a local site gets besides wrangler.toml's, for `npm start`, `npm run dev`, the
// benches and every test layer alike: never a deployment's.
export const localVars = {
  // The sign-in mail goes to the local outbox (/dev/outbox), asked for by name: MAIL_TRANSPORT is required.
  MAIL_TRANSPORT: "outbox",
  // The visitor vouchers' key (rules/visitor-voucher.ts). Public, so only for a local site: a
  // deployment sets its own secret (`wrangler secret put VISITOR_ID_KEYS`).
  VISITOR_ID_KEYS: "local:this-key-vouches-for-local-visitors-only",
};

/** The same as `--var NAME:value` arguments of `wrangler dev`. */
export function localVarArguments() {
  return Object.entries(localVars).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
}
