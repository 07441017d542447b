import * as v from "valibot";
import type { ServicesProxy } from "#edge/services/index.ts";
import { type LoginState, loginStateSchema, readAccountCookies, sessionEndedStatus } from "#rules/account.ts";
import { accountServicePath, type QueryParams } from "#rules/addresses.ts";

/**
 * The signed-in state of a page request, asked of the account service once per request and only
 * when the request carries a session cookie: an anonymous request costs nothing and its page
 * stays cacheable. A session that has ended (456) is signed out and its cookie cleared.
 */
export type SessionResolution = {
  /** The request carried a session cookie: its page is the visitor's own (`private, no-store`). */
  hasSession: boolean;
  account: LoginState | null;
  setCookies: string[];
};

export const anonymous: SessionResolution = { hasSession: false, account: null, setCookies: [] };

/** Headers of the visitor's request the account service reads: the cookies, the agent, the client. */
export function accountRequestHeaders(request: Request): Headers {
  const headers = new Headers({ accept: "application/json" });
  for (const name of ["cookie", "user-agent", "cf-connecting-ip"]) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}

/**
 * A call to the account service (`/services/account/{segments}`, rules/addresses.ts
 * `accountServicePath`) on behalf of the visitor's request.
 */
export function accountCall(
  services: ServicesProxy,
  request: Request,
  segments: readonly string[],
  init: { method?: "GET" | "POST"; body?: unknown; query?: QueryParams } = {},
): Promise<Response> {
  const headers = accountRequestHeaders(request);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  return services.handle(
    new Request(new URL(accountServicePath(segments, init.query), request.url), {
      method: init.method ?? "GET",
      headers,
      body: init.body === undefined ? null : JSON.stringify(init.body),
    }),
  );
}

export async function resolveSession(services: ServicesProxy, request: Request): Promise<SessionResolution> {
  if (!readAccountCookies(request.headers.get("cookie")).session) return anonymous;
  const response = await accountCall(services, request, ["status"]);
  const setCookies = response.headers.getSetCookie();
  if (response.status === 200) {
    const parsed = v.safeParse(loginStateSchema, await response.json().catch(() => undefined));
    if (parsed.success) return { hasSession: true, account: parsed.output, setCookies };
  } else {
    await response.body?.cancel();
  }
  if (response.status !== sessionEndedStatus && response.status !== 401) {
    console.error(`session: the account service answered ${response.status}`);
  }
  return { hasSession: true, account: null, setCookies };
}
