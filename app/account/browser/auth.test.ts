import { describe, expect, test } from "vitest";
import {
  type AuthProvider,
  type AuthState,
  clearSignedInStorage,
  initAuth,
  signInFlags,
  unavailableProvider,
  webProvider,
} from "#app/account/browser/auth.ts";
import { cloudLibraryKey, createSiteStorage } from "#app/shell/browser/storage.ts";
import type { LoginState } from "#rules/account.ts";
import { memoryStorage } from "#tests/unit/memory-storage.ts";

const state = (method: LoginState["method"]): LoginState => ({
  loggedin: true,
  authenticationType: method === "icloud" ? "ICLOUD" : "FIREBASE",
  method,
  storage: method === "icloud" ? "cloud" : "account",
  hasLibraryZone: method === "icloud",
  email: "ana@example.com",
});

const reporting = (name: AuthProvider["name"], login: LoginState | null, delayMs = 0): AuthProvider => ({
  name,
  init: () =>
    new Promise((resolve) =>
      setTimeout(
        () => resolve(login ? { status: "loggedin", state: login } : { status: "loggedout" }),
        delayMs,
      ),
    ),
});

describe("spec 002 §4 auth init", () => {
  test("not started → initializing → initialized, once every provider has reported", async () => {
    const phases: AuthState["phase"][] = [];
    const settled = await initAuth([webProvider(null), unavailableProvider("icloud")], (next) =>
      phases.push(next.phase),
    );
    expect(phases).toEqual(["initializing", "initialized"]);
    expect(settled).toEqual({ phase: "initialized", initialized: true, login: null, available: ["web"] });
  });

  test("the first provider (in order) reporting loggedin sets the state, however slow", async () => {
    const settled = await initAuth(
      [reporting("web", state("email"), 20), reporting("icloud", state("icloud"), 0)],
      () => {},
    );
    expect(settled).toMatchObject({ login: { method: "email" } });
  });

  test("a failing provider: logged out and initialized false", async () => {
    const failing: AuthProvider = { name: "icloud", init: () => Promise.reject(new Error("offline")) };
    const settled = await initAuth([webProvider(state("email")), failing], () => {});
    expect(settled).toEqual({ phase: "initialized", initialized: false, login: null, available: [] });
  });
});

describe("spec 000 §3 beacon flags aa, ea, ga", () => {
  test.each([
    [null, { aa: false, ea: false, ga: false }],
    [state("email"), { aa: false, ea: true, ga: false }],
    [state("google"), { aa: false, ea: false, ga: true }],
    [state("icloud"), { aa: true, ea: false, ga: false }],
  ])("%o", (login, flags) => {
    expect(signInFlags(login)).toEqual(flags);
  });
});

test("spec 002 §4 logout clears the stored tokens and the cached tags, and keeps the visitor", () => {
  const backing = memoryStorage();
  const storage = createSiteStorage({ storage: () => backing });
  storage.set("webId", "visitor-1");
  storage.set("loggedin", true);
  storage.set("icloud.token", "token");
  storage.set("eat", "e");
  storage.set(cloudLibraryKey, { tags: [], storedAt: 1 });
  clearSignedInStorage(storage);
  expect([...Array(backing.length).keys()].map((index) => backing.key(index)).sort()).toEqual([
    "storage.version",
    "webId",
  ]);
});
