import { expect, test } from "vitest";
import {
  connectionKey,
  connectionState,
  createSiteStorage,
  type SiteStorage,
} from "#app/shell/browser/storage.ts";
import { completeConnect, connectStatistic } from "#app/streaming/browser/connect.ts";
import type { CheckState } from "#rules/streaming.ts";
import { memoryStorage } from "#tests/unit/memory-storage.ts";

// The callback's rules (spec 002 §5, §8): the state check, a refusal, the token exchange's
// 200-only success and what each failure reports.

const now = 1_800_000_000_000;
const pending: CheckState = {
  state: "track_3f1c",
  verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
  clientId: "tunewave-web",
  redirectUri: "https://tunewave.test/applemusic/signin/complete",
  screenname: "track",
  beaconId: "3f1c",
};

function attempt(): SiteStorage {
  const backing = memoryStorage();
  const storage = createSiteStorage({ storage: () => backing, now: () => now });
  storage.set("_checkstate", pending);
  return storage;
}

function answering(status: number, body: unknown) {
  const calls: { input: string; body: string }[] = [];
  const fetch = async (input: string, init?: RequestInit) => {
    calls.push({ input, body: String(init?.body) });
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status });
  };
  return { fetch, calls };
}

const token = { access_token: "tok", token_type: "Bearer", expires_in: 3600, scope: "music" };

test.each([
  [
    "a state that is not the one issued",
    "state=track_other&code=c",
    200,
    token,
    { outcome: "failed", error: "invalid_state" },
  ],
  ["no state at all", "code=c", 200, token, { outcome: "failed", error: "invalid_state" }],
  ["access_denied: a refusal", "state=track_3f1c&error=access_denied", 200, token, { outcome: "refused" }],
  [
    "another error from the provider",
    "state=track_3f1c&error=server_error",
    200,
    token,
    { outcome: "failed", error: "server_error" },
  ],
  ["no code", "state=track_3f1c", 200, token, { outcome: "failed", error: "invalid_request" }],
  [
    "a 400 naming its error",
    "state=track_3f1c&code=c",
    400,
    { error: "invalid_grant" },
    { outcome: "failed", error: "invalid_grant", status: 400 },
  ],
  [
    "a 502 naming none",
    "state=track_3f1c&code=c",
    502,
    "Bad gateway",
    { outcome: "failed", error: "unknown", status: 502 },
  ],
  [
    "a 200 without a token",
    "state=track_3f1c&code=c",
    200,
    { token_type: "Bearer" },
    { outcome: "failed", error: "unknown", status: 200 },
  ],
  [
    "a 201 with a token (200 only)",
    "state=track_3f1c&code=c",
    201,
    token,
    { outcome: "failed", error: "unknown", status: 201 },
  ],
  ["a 200 with a token", "state=track_3f1c&code=c", 200, token, { outcome: "connected" }],
] as const)("%s", async (_, search, status, body, outcome) => {
  const storage = attempt();
  const { fetch } = answering(status, body);
  expect(await completeConnect(storage, new URLSearchParams(search), fetch, () => now)).toEqual(outcome);
  expect(connectionState(storage, now)).toBe(outcome.outcome === "connected" ? "connected" : "unconnected");
  // One callback per attempt.
  expect(storage.get("_checkstate")).toEqual({ ok: true, value: undefined });
});

test("the exchange sends the code with the attempt's verifier, redirect URI and client, form-encoded", async () => {
  const { fetch, calls } = answering(200, token);
  await completeConnect(attempt(), new URLSearchParams("state=track_3f1c&code=the-code"), fetch, () => now);
  expect(calls).toHaveLength(1);
  expect(calls[0]?.input).toBe("/services/partner/oauth/commerce/oauth2/token");
  expect(Object.fromEntries(new URLSearchParams(calls[0]?.body))).toEqual({
    grant_type: "authorization_code",
    code: "the-code",
    code_verifier: pending.verifier,
    redirect_uri: pending.redirectUri,
    client_id: pending.clientId,
  });
});

test("a second callback of the same attempt finds nothing to complete", async () => {
  const storage = attempt();
  const { fetch, calls } = answering(200, token);
  await completeConnect(storage, new URLSearchParams("state=track_3f1c&code=c"), fetch, () => now);
  expect(
    await completeConnect(storage, new URLSearchParams("state=track_3f1c&code=c"), fetch, () => now),
  ).toEqual({
    outcome: "failed",
    error: "invalid_state",
  });
  expect(calls).toHaveLength(1);
});

test("the connection expires with its token, and is then said to have expired", async () => {
  const storage = attempt();
  await completeConnect(
    storage,
    new URLSearchParams("state=track_3f1c&code=c"),
    answering(200, token).fetch,
    () => now,
  );
  expect(connectionState(storage, now + 3599_000)).toBe("connected");
  const copy = memoryStorageWith(storage);
  const later = createSiteStorage({ storage: () => copy, now: () => now + 3600_000 });
  expect(connectionState(later, now + 3600_000)).toBe("expired");
});

/** A plain Storage holding what `storage` holds (to read it at another time). */
function memoryStorageWith(storage: SiteStorage): Storage {
  const copy = memoryStorage();
  const record = storage.get(connectionKey);
  if (record.ok && record.value) {
    copy.setItem(connectionKey, JSON.stringify({ data: record.value, expires: now + 10 * 3600_000 }));
  }
  return copy;
}

test.each([
  [{ outcome: "connected" }, undefined],
  [{ outcome: "refused" }, undefined],
  [
    { outcome: "failed", error: "invalid_state" },
    { beaconType: "error", beaconId: "err-connect", errorcode: "invalid_state" },
  ],
  [
    { outcome: "failed", error: "unknown", status: 502 },
    { beaconType: "error", beaconId: "err-connect", errorcode: "unknown", status_code: 502 },
  ],
] as const)("statistic of %o", (outcome, statistic) => {
  expect(connectStatistic(outcome)).toEqual(statistic);
});
