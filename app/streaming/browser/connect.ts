import * as v from "valibot";
import { openCenteredPopup, tellOpener } from "#app/shell/browser/popup.ts";
import { connectionKey, type SiteStorage } from "#app/shell/browser/storage.ts";
import type { BeaconParams } from "#rules/beacon-params.ts";
import { randomUrlToken, s256Challenge } from "#rules/pkce.ts";
import {
  authorizationUrl,
  type CheckState,
  callbackPath,
  challengeMethod,
  checkStateLifetimeMs,
  connectPopup,
  connectScope,
  connectState,
  expiredConnectionMemoryMs,
  invalidState,
  popupAutoCloseMs,
  revokePath,
  type StreamingConfig,
  tokenAnswerSchema,
  tokenErrorSchema,
  tokenPath,
} from "#rules/streaming.ts";

/**
 * The site's side of the streaming-service connection (spec 002 §4 "Connect flow: popup, then
 * callback with state check, then token exchange, then confirm overlay"): a public OAuth client
 * with PKCE in the browser. The page that starts it keeps the verifier in local storage
 * (`_checkstate`); the callback page in the popup reads it back, checks the state, exchanges the
 * code and stores the connection, which other tabs see through the storage event.
 */

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * Starts a connect attempt: a fresh verifier and its S256 challenge (RFC 7636 §4.1–§4.2), the
 * state (spec 002 §3 "screen name + '_' + beacon id"), then the popup on the authorization page.
 * Null when the browser blocked the popup (the page says so).
 */
export async function beginConnect(
  view: Window,
  storage: SiteStorage,
  config: StreamingConfig,
  attempt: { screenname: string; beaconId: string },
): Promise<Window | null> {
  // Opened first, inside the click: a popup opened after an await is blocked as unrequested.
  const popup = openCenteredPopup(view, "about:blank", "tw-connect", connectPopup);
  if (!popup) return null;
  const verifier = randomUrlToken();
  const check: CheckState = {
    state: connectState(attempt.screenname, attempt.beaconId),
    verifier,
    clientId: config.clientId,
    redirectUri: new URL(callbackPath, view.location.origin).href,
    screenname: attempt.screenname,
    beaconId: attempt.beaconId,
  };
  storage.set("_checkstate", check, { expiresInMs: checkStateLifetimeMs });
  popup.location.href = authorizationUrl(
    config.authorizeUrl,
    {
      client_id: check.clientId,
      response_type: "code",
      scope: connectScope,
      redirect_uri: check.redirectUri,
      code_challenge: await s256Challenge(verifier),
      code_challenge_method: challengeMethod,
      state: check.state,
    },
    view.location.origin,
  );
  return popup;
}

/**
 * How a connect attempt ended. `refused`: the person said no (spec 002 §5 "access_denied is
 * treated as user refusal and is not reported as an error"); `failed` carries the error and,
 * for a token exchange that did not answer 200, its status.
 */
export type ConnectOutcome =
  | { outcome: "connected" }
  | { outcome: "refused" }
  | { outcome: "failed"; error: string; status?: number };

/** The callback (spec 002 §5): state check, access_denied, then the token exchange, 200 only. */
export async function completeConnect(
  storage: SiteStorage,
  callback: URLSearchParams,
  fetch: Fetch,
  now: () => number = Date.now,
): Promise<ConnectOutcome> {
  const pending = storage.get("_checkstate");
  const check = pending.ok ? pending.value : undefined;
  // One callback per attempt: a replayed or second callback finds nothing to complete.
  storage.remove("_checkstate");
  if (!check || callback.get("state") !== check.state) return { outcome: "failed", error: invalidState };
  const error = callback.get("error");
  if (error === "access_denied") return { outcome: "refused" };
  if (error) return { outcome: "failed", error: error.slice(0, 100) };
  const code = callback.get("code");
  if (!code) return { outcome: "failed", error: "invalid_request" };

  let response: Response;
  try {
    response = await fetch(tokenPath, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        code_verifier: check.verifier,
        redirect_uri: check.redirectUri,
        client_id: check.clientId,
      }),
    });
  } catch {
    return { outcome: "failed", error: "network" };
  }
  const body: unknown = await response.json().catch(() => undefined);
  const answer = v.safeParse(tokenAnswerSchema, body);
  if (response.status !== 200 || !answer.success) {
    const refusal = v.safeParse(tokenErrorSchema, body);
    return {
      outcome: "failed",
      error: refusal.success ? refusal.output.error : "unknown",
      status: response.status,
    };
  }
  const lifetimeMs = (answer.output.expires_in ?? 3600) * 1000;
  const expiresAt = now() + lifetimeMs;
  const stored = storage.set(
    connectionKey,
    { access_token: answer.output.access_token, expiresAt },
    { expiresInMs: lifetimeMs + expiredConnectionMemoryMs },
  );
  return stored.ok ? { outcome: "connected" } : { outcome: "failed", error: "storage" };
}

/**
 * Spec 002 §8: "Token exchange not 200: Statistic with status_code and error or 'unknown'";
 * "Connect errors other than access_denied: Statistic err-connect". A refusal sends nothing.
 */
export function connectStatistic(result: ConnectOutcome): BeaconParams | undefined {
  if (result.outcome !== "failed") return undefined;
  return {
    beaconType: "error",
    beaconId: "err-connect",
    errorcode: result.error,
    ...(result.status === undefined ? {} : { status_code: result.status }),
  };
}

/** Disconnecting: the provider revokes the token (RFC 7009; best effort), the site forgets it. */
export async function disconnect(storage: SiteStorage, clientId: string, fetch: Fetch): Promise<void> {
  const record = storage.get(connectionKey);
  storage.remove(connectionKey);
  if (!record.ok || !record.value) return;
  await fetch(revokePath, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: record.value.access_token, client_id: clientId }),
  }).catch(() => undefined);
}

/** What the callback page tells the page that opened the popup. */
export type ConnectMessage = { type: "tw-connect"; result: ConnectOutcome };

function isConnectOutcome(value: unknown): value is ConnectOutcome {
  if (typeof value !== "object" || value === null) return false;
  const { outcome, error, status } = value as Record<string, unknown>;
  if (outcome === "connected" || outcome === "refused") return true;
  return (
    outcome === "failed" &&
    typeof error === "string" &&
    error.length <= 100 &&
    (status === undefined || (typeof status === "number" && Number.isInteger(status)))
  );
}

/** Calls `onResult` for connect messages from this site's own pages only; returns the unsubscribe. */
export function onConnectMessage(view: Window, onResult: (result: ConnectOutcome) => void): () => void {
  const listener = (event: MessageEvent) => {
    if (event.origin !== view.location.origin) return;
    const data = event.data as Partial<ConnectMessage> | null;
    if (data?.type !== "tw-connect" || !isConnectOutcome(data.result)) return;
    onResult(data.result);
  };
  view.addEventListener("message", listener);
  return () => view.removeEventListener("message", listener);
}

/**
 * From the callback page in the popup: tells the opener, then closes (spec 002 §9 "popup
 * auto-close 2 s after callback"). False when there is no opener to tell (the page stays).
 */
export function reportConnect(view: Window, result: ConnectOutcome): boolean {
  const message: ConnectMessage = { type: "tw-connect", result };
  return tellOpener(view, message, popupAutoCloseMs);
}
