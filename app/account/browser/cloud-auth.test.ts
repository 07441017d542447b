import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { ProviderReport } from "#app/account/browser/auth.ts";
import { cloudProvider, currentUserUrl } from "#app/account/browser/cloud-auth.ts";
import { createSiteStorage } from "#app/shell/browser/storage.ts";
import { type CloudKitConfig, cloudSessionPoll } from "#rules/account.ts";
import { memoryStorage } from "#tests/unit/memory-storage.ts";

// Spec 002 §4/§7/§8/§9: the device maker's cloud provider against a stand-in CloudKit
// `users/current`, on a fake clock.

const config: CloudKitConfig = {
  container: "iCloud.com.tunewave.web",
  apiToken: "a".repeat(64),
  environment: "production",
};
const signInPage = "https://idmsa.apple.com/IDMSWebAuth/signin?appIdKey=test";

/** CloudKit as a test sets it: signed in for these web auth tokens, else 421 with the sign-in page. */
function cloudKit(validTokens: Set<string>) {
  const asked: string[] = [];
  const fetch = async (url: string) => {
    asked.push(url);
    const token = new URL(url).searchParams.get("ckWebAuthToken");
    if (token && validTokens.has(token)) {
      return Response.json({ userRecordName: "_abc123", firstName: "Ana", lastName: "Lima" });
    }
    return Response.json(
      { ckErrorCode: "AUTHENTICATION_REQUIRED", redirectURL: signInPage },
      { status: 421 },
    );
  };
  return { fetch, asked };
}

function setUp(validTokens = new Set<string>()) {
  const service = cloudKit(validTokens);
  const backing = memoryStorage();
  const storage = createSiteStorage({ storage: () => backing });
  const provider = cloudProvider(config, {
    fetch: service.fetch,
    storage,
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  });
  return { provider, storage, service };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the session check", () => {
  test("users/current with the API token, and the web auth token once there is one", () => {
    expect(currentUserUrl(config, undefined)).toBe(
      `https://api.apple-cloudkit.com/database/1/iCloud.com.tunewave.web/production/public/users/current?ckAPIToken=${"a".repeat(64)}`,
    );
    expect(new URL(currentUserUrl(config, "tok/en")).searchParams.get("ckWebAuthToken")).toBe("tok/en");
  });

  test("421 with redirectURL: signed out, and the sign-in address is Apple's (spec 002 §8)", async () => {
    const { provider } = setUp();
    expect(await provider.init()).toEqual({ status: "loggedout" });
    expect(provider.signInUrl()).toBe(signInPage);
  });

  test("the token from the sign-in popup signs in: method icloud, ICLOUD, cloud storage", async () => {
    const { provider, storage } = setUp(new Set(["good-token"]));
    await provider.init();
    const report = await provider.acceptToken("good-token");
    expect(report).toMatchObject({
      status: "loggedin",
      state: { method: "icloud", authenticationType: "ICLOUD", storage: "cloud", email: "Ana Lima" },
    });
    expect(storage.get("icloud.token")).toMatchObject({ ok: true, value: "good-token" });
    expect(provider.signInUrl()).toBeUndefined();
  });

  test("a stored token that no longer signs in is dropped", async () => {
    const { provider, storage } = setUp();
    storage.set("icloud.token", "stale");
    expect(await provider.init()).toEqual({ status: "loggedout" });
    expect(storage.get("icloud.token")).toMatchObject({ ok: true, value: undefined });
  });

  test("any other answer is a failure of init (auth init then logs out, spec 002 §4)", async () => {
    const provider = cloudProvider(config, {
      fetch: async () => new Response("down", { status: 503 }),
      storage: createSiteStorage({ storage: () => memoryStorage() }),
      setTimeout,
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    });
    await expect(provider.init()).rejects.toThrow("503");
  });
});

describe("spec 002 §4/§9: the session poll, every 30 s, at most 20 times, while attached", () => {
  test("20 polls 30 s apart, then none", async () => {
    const { provider, service } = setUp();
    await provider.init();
    const asked = service.asked.length;
    provider.attach(() => {});
    await vi.advanceTimersByTimeAsync(cloudSessionPoll.intervalMs - 1);
    expect(service.asked.length).toBe(asked);
    await vi.advanceTimersByTimeAsync(1);
    expect(service.asked.length).toBe(asked + 1);
    await vi.advanceTimersByTimeAsync(cloudSessionPoll.intervalMs * 40);
    expect(service.asked.length).toBe(asked + cloudSessionPoll.maxPolls);
  });

  test("a sign-in elsewhere shows at the next poll, once; detaching stops the polls", async () => {
    const valid = new Set<string>();
    const { provider, storage, service } = setUp(valid);
    await provider.init();
    const changes: ProviderReport[] = [];
    const detach = provider.attach((report) => changes.push(report));
    await vi.advanceTimersByTimeAsync(cloudSessionPoll.intervalMs);
    expect(changes).toEqual([]);
    // Another tab stored a token that signs in.
    valid.add("from-another-tab");
    storage.set("icloud.token", "from-another-tab");
    await vi.advanceTimersByTimeAsync(cloudSessionPoll.intervalMs * 2);
    expect(changes).toMatchObject([{ status: "loggedin" }]);
    detach();
    const asked = service.asked.length;
    await vi.advanceTimersByTimeAsync(cloudSessionPoll.intervalMs * 5);
    expect(service.asked.length).toBe(asked);
  });
});
