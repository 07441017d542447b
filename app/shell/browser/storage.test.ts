import { expect, test } from "vitest";
import {
  type ConnectionEvent,
  connectionKey,
  createSiteStorage,
  ensureWebId,
  type StorageEventTarget,
  type StorageKey,
  storageDefaultExpiryMs,
  storageVersionKey,
  webIdLifetimeMs,
} from "#app/shell/browser/storage.ts";
import { SiteError } from "#rules/errors.ts";

/** A small in-memory `Storage`, optionally refusing writes like a full quota or private mode. */
function memoryStorage(
  initial: Record<string, string> = {},
  options: { refuseWrites?: boolean } = {},
): Storage {
  const items = new Map(Object.entries(initial));
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem(key, value) {
      if (options.refuseWrites) throw new DOMException("quota", "QuotaExceededError");
      items.set(key, String(value));
    },
    removeItem: (key) => {
      items.delete(key);
    },
    clear: () => items.clear(),
  };
}

function clock(start = 1_700_000_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const migrated = { [storageVersionKey]: "2" };

test("a value is stored as a record of data and expires, 180 days ahead by default", () => {
  const storage = memoryStorage(migrated);
  const time = clock();
  const site = createSiteStorage({ storage: () => storage, now: time.now });
  expect(site.set("search.recents", ["adele", "abba"])).toEqual({ ok: true, value: undefined });
  expect(JSON.parse(storage.getItem("search.recents") ?? "")).toEqual({
    data: ["adele", "abba"],
    expires: time.now() + 15_552_000_000,
  });
  expect(site.get("search.recents")).toEqual({ ok: true, value: ["adele", "abba"] });
});

test.each([
  {
    name: "default expiry, just before",
    key: "loggedin" as const,
    data: true,
    after: storageDefaultExpiryMs - 1,
    alive: true,
  },
  {
    name: "default expiry, at the end",
    key: "loggedin" as const,
    data: true,
    after: storageDefaultExpiryMs,
    alive: false,
  },
  {
    name: "web id, past 180 days",
    key: "webId" as const,
    data: "w-1",
    after: storageDefaultExpiryMs + 1,
    alive: true,
  },
  {
    name: "web id, just before a year",
    key: "webId" as const,
    data: "w-1",
    after: webIdLifetimeMs - 1,
    alive: true,
  },
  { name: "web id, after a year", key: "webId" as const, data: "w-1", after: webIdLifetimeMs, alive: false },
])("expiry: $name", ({ key, data, after, alive }) => {
  const storage = memoryStorage(migrated);
  const time = clock();
  const site = createSiteStorage({ storage: () => storage, now: time.now });
  site.set(key, data);
  time.advance(after);
  expect(site.get(key)).toEqual({ ok: true, value: alive ? data : undefined });
  // An expired record is removed, not left to fail every later read.
  expect(storage.getItem(key) !== null).toBe(alive);
});

test("an explicit lifetime overrides the default", () => {
  const storage = memoryStorage(migrated);
  const time = clock();
  const site = createSiteStorage({ storage: () => storage, now: time.now });
  site.set("maploc", { lat: 51.5, lng: -0.12 }, { expiresInMs: 1000 });
  time.advance(999);
  expect(site.get("maploc")).toEqual({ ok: true, value: { lat: 51.5, lng: -0.12 } });
  time.advance(1);
  expect(site.get("maploc")).toEqual({ ok: true, value: undefined });
});

test.each(["get", "set", "remove"] as const)(
  "%s without a key fails with invalidparam Missing key",
  (operation) => {
    const site = createSiteStorage({ storage: () => memoryStorage(migrated) });
    const key = "" as StorageKey;
    const result =
      operation === "get" ? site.get(key) : operation === "set" ? site.set(key, true) : site.remove(key);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(SiteError);
    expect(result.error.type).toBe("invalidparam");
    expect(result.error.message).toBe("Missing key");
  },
);

test("data that does not fit the key is refused on write", () => {
  const site = createSiteStorage({ storage: () => memoryStorage(migrated) });
  const result = site.set("maploc", { lat: "north" } as unknown as { lat: number; lng: number });
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error.type).toBe("invalidparam");
});

test.each([
  { name: "not JSON", raw: "{oops" },
  { name: "not a record", raw: JSON.stringify(["a"]) },
  { name: "expires missing", raw: JSON.stringify({ data: ["a"] }) },
  { name: "data of the wrong shape", raw: JSON.stringify({ data: "a", expires: 2e12 }) },
])("a stored value that is $name reads as absent and is removed", ({ raw }) => {
  const storage = memoryStorage({ ...migrated, "search.recents": raw });
  const site = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  expect(site.get("search.recents")).toEqual({ ok: true, value: undefined });
  expect(storage.getItem("search.recents")).toBeNull();
});

test("format version 2: first use clears everything but the kept legacy keys", () => {
  const now = 1_700_000_000_000;
  const webIdRecord = JSON.stringify({ data: "web-1", expires: now + 1000 });
  const storage = memoryStorage({
    webId: webIdRecord,
    inid: "install-7", // the install id lives in a cookie now (decision 046)
    loggedin: JSON.stringify({ data: true, expires: now + 1000 }),
    [connectionKey]: JSON.stringify({
      data: { access_token: "t", expiresAt: now + 1000 },
      expires: now + 1000,
    }),
    "search.recents": JSON.stringify({ data: ["x"], expires: now + 1000 }),
    "someone.else": "value",
    [storageVersionKey]: "1",
  });
  const site = createSiteStorage({ storage: () => storage, now: () => now });
  expect(site.get("webId")).toEqual({ ok: true, value: "web-1" });
  const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index)).sort();
  expect(keys).toEqual([storageVersionKey, "webId"]);
  expect(storage.getItem(storageVersionKey)).toBe("2");
  expect(storage.getItem("webId")).toBe(webIdRecord);
});

test("format version 2: a bare web id of an older format is kept, wrapped into a record", () => {
  const now = 1_700_000_000_000;
  const storage = memoryStorage({ webId: "web-7", [storageVersionKey]: "1" });
  const site = createSiteStorage({ storage: () => storage, now: () => now });
  expect(site.get("webId")).toEqual({ ok: true, value: "web-7" });
  expect(JSON.parse(storage.getItem("webId") ?? "")).toEqual({
    data: "web-7",
    expires: now + webIdLifetimeMs,
  });
});

test("format version 2: a kept key that is neither a record nor an id is dropped", () => {
  const storage = memoryStorage({ webId: "<script>alert(1)</script>" });
  const site = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  expect(site.get("webId")).toEqual({ ok: true, value: undefined });
  expect(storage.getItem("webId")).toBeNull();
});

test("format version 2: a store already at version 2 is left alone", () => {
  const storage = memoryStorage({ ...migrated, "someone.else": "value" });
  const site = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  site.get("loggedin");
  expect(storage.getItem("someone.else")).toBe("value");
});

test.each([
  {
    name: "localStorage access throws (cookies disabled)",
    storage: (): Storage => {
      throw new DOMException("denied", "SecurityError");
    },
  },
  {
    name: "writes are refused (quota, private mode)",
    storage: () => memoryStorage(migrated, { refuseWrites: true }),
  },
  { name: "there is no localStorage", storage: () => undefined as unknown as Storage },
])("storage unavailable ($name): typed failures, never a throw", ({ storage }) => {
  const site = createSiteStorage({ storage });
  expect(site.isAvailable()).toBe(false);
  const written = site.set("loggedin", true);
  expect(written.ok).toBe(false);
  if (!written.ok) expect(written.error.type).toBe("unsupported");
});

test("reads still work when only writes are refused", () => {
  const record = JSON.stringify({ data: true, expires: 2e12 });
  const site = createSiteStorage({
    storage: () => memoryStorage({ ...migrated, loggedin: record }, { refuseWrites: true }),
    now: () => 1e12,
  });
  expect(site.get("loggedin")).toEqual({ ok: true, value: true });
});

test("connecting and disconnecting in this tab fires added/removed and connection-change", () => {
  const storage = memoryStorage(migrated);
  const site = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  const events: ConnectionEvent[] = [];
  site.onConnection((event) => events.push(event));
  site.set(connectionKey, { access_token: "token-1", expiresAt: 2e12 });
  site.set(connectionKey, { access_token: "token-2", expiresAt: 2e12 }); // a refreshed token is no new connection
  site.remove(connectionKey);
  expect(events).toEqual([
    { type: "added", connected: true },
    { type: "connection-change", connected: true },
    { type: "removed", connected: false },
    { type: "connection-change", connected: false },
  ]);
});

function fakeWindow() {
  let listener: ((event: StorageEvent) => void) | undefined;
  const target: StorageEventTarget = {
    addEventListener: (_type, added) => {
      listener = added;
    },
    removeEventListener: () => {
      listener = undefined;
    },
  };
  return {
    target,
    dispatch: (event: Partial<StorageEvent>) => listener?.(event as StorageEvent),
    listening: () => listener !== undefined,
  };
}

test("another tab's connection changes arrive as connection-change", () => {
  const storage = memoryStorage(migrated);
  const site = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  const other = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  const window = fakeWindow();
  const events: ConnectionEvent[] = [];
  site.onConnection((event) => events.push(event));
  const stop = site.watchOtherTabs(window.target);

  other.set(connectionKey, { access_token: "token-1", expiresAt: 2e12 });
  window.dispatch({
    key: connectionKey,
    oldValue: null,
    newValue: storage.getItem(connectionKey),
    storageArea: storage,
  });
  window.dispatch({ key: "search.recents", storageArea: storage }); // not ours to report
  storage.clear(); // another tab cleared everything
  window.dispatch({ key: null, storageArea: storage });

  expect(events).toEqual([
    { type: "connection-change", connected: true },
    { type: "connection-change", connected: false },
  ]);
  stop();
  expect(window.listening()).toBe(false);
});

test.each([
  ["the record expired", { access_token: "old", expiresAt: 2e12 }, 10],
  ["the token expired, the record is kept to say so", { access_token: "old", expiresAt: 10 }, 2e12],
])("an expired connection does not count as connected: %s", (_, data, expires) => {
  const storage = memoryStorage({ ...migrated, [connectionKey]: JSON.stringify({ data, expires }) });
  const site = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  const events: ConnectionEvent[] = [];
  site.onConnection((event) => events.push(event));
  site.set(connectionKey, { access_token: "new", expiresAt: 2e12 });
  expect(events[0]).toEqual({ type: "added", connected: true });
});

test("ensureWebId creates the id once and marks only the first visit as new", () => {
  const storage = memoryStorage();
  const site = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  let made = 0;
  const randomId = () => `id-${++made}`;
  expect(ensureWebId(site, { randomId })).toEqual({ webId: "id-1", newuser: true, stored: true });
  expect(ensureWebId(site, { randomId })).toEqual({ webId: "id-1", newuser: false, stored: true });
  expect(made).toBe(1);
});

test.each([
  { name: "first visit", before: undefined, newuser: true },
  { name: "a different id stored", before: "browser-id", newuser: false },
  { name: "the same id stored", before: "server-id", newuser: false },
])("ensureWebId takes the server's id and stores it: $name", ({ before, newuser }) => {
  const storage = memoryStorage(migrated);
  const site = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  if (before) site.set("webId", before);
  expect(ensureWebId(site, { serverWebId: "server-id", randomId: () => "random" })).toEqual({
    webId: "server-id",
    newuser,
    stored: true,
  });
  expect(site.get("webId")).toEqual({ ok: true, value: "server-id" });
});

test("ensureWebId without storage gives a page-long id and says it was not stored", () => {
  const site = createSiteStorage({
    storage: () => {
      throw new DOMException("denied", "SecurityError");
    },
  });
  expect(ensureWebId(site, { randomId: () => "id-x" })).toEqual({
    webId: "id-x",
    newuser: true,
    stored: false,
  });
});

test.each([
  { name: "first visit", before: undefined },
  { name: "an id stored before", before: "old-id" },
])("ensureWebId for a visitor who asks not to be tracked (GPC) stores no id: $name", ({ before }) => {
  const storage = memoryStorage(migrated);
  const site = createSiteStorage({ storage: () => storage, now: () => 1e12 });
  if (before) site.set("webId", before);
  expect(ensureWebId(site, { serverWebId: "server-id", untracked: true, randomId: () => "random" })).toEqual({
    webId: undefined,
    newuser: undefined,
    stored: false,
  });
  const after = site.get("webId");
  expect(after.ok ? after.value : undefined).toBeUndefined();
});
