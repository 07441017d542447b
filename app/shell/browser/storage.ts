import * as v from "valibot";
import { SiteError } from "#rules/errors.ts";
import { libraryTagSchema } from "#rules/library.ts";
import {
  type ConnectionRecord,
  type ConnectionState,
  checkStateSchema,
  connectionRecordSchema,
  connectionStateOf,
} from "#rules/streaming.ts";

/**
 * Local storage of the site (spec 000 §3 "Local storage record", §4, §5, §9; spec 002 §3 keys).
 * Every value is a record `{ data, expires }`. Reads parse the record and its data with the key's
 * schema: what another script, an older version or a curious visitor left there is not trusted.
 * Storage can be missing or refuse to work (private mode, full quota, cookies disabled): every
 * operation returns a result instead of throwing.
 */

/** Spec 000 §9: "Local storage default expiry 15552000000 ms (180 days)." */
export const storageDefaultExpiryMs = 15_552_000_000;
/** Spec 000 §9: "Web id lifetime 31536000000 ms (about one year)." */
export const webIdLifetimeMs = 31_536_000_000;
/** Spec 000 §9: "Storage format version 2." */
export const storageFormatVersion = 2;
/** Where the format version itself is kept (a plain number, not a record). */
export const storageVersionKey = "storage.version";
/** The streaming-service connection record (spec 000 §3: "holding access_token"). */
export const connectionKey = "streaming.connection";
/**
 * The cloud library's last list read (spec 002 §8 "Cloud query failure: Falls back to the cached
 * list"): the tags as the page renders them and when they were read. The person's own data, so
 * sign-out removes it (app/account/browser/auth.ts `clearSignedInStorage`).
 */
export const cloudLibraryKey = "library.cloud";

/**
 * Kept when the store is cleared on first use of format version 2 (spec 000 §4, which keys: not
 * shown). Only the visitor's web id survives: clearing it would count every returning visitor as
 * new and move them to another feature-flag rollout bucket. Everything else is a cache, a
 * preference or session state that the site rebuilds, and old sign-in or connection tokens must
 * not outlive a format change. The install id (`inid`) is not a key here: the edge keeps it in a
 * cookie (decision 046).
 */
export const legacyKeysKept = ["webId"] as const;

const latLng = v.object({ lat: v.number(), lng: v.number() });

/**
 * Data schema of each key (000 §3, 002 §3). The spec's `inid`, `inapp`, `amconnect` and
 * `first_visit.{timestamp}` are not kept here: the same facts have one home each (decision 046).
 */
const dataSchemas = {
  "search.recents": v.array(v.string()),
  webId: v.pipe(v.string(), v.minLength(1)),
  // The pending streaming-service connect attempt: its state and PKCE verifier, for the callback.
  _checkstate: checkStateSchema,
  loggedin: v.boolean(),
  [connectionKey]: connectionRecordSchema,
  maploc: latLng,
  "icloud.token": v.string(),
  icloud: v.boolean(),
  eat: v.string(),
  ec: v.union([v.string(), v.boolean()]),
  // The recognition issue owns the shape of a match; here it is only kept and handed back.
  "webrec.fab_match": v.unknown(),
  "webrec.prev_match": v.unknown(),
  // The songs identified on this device (app/recognition/browser/recent-identifications.ts parses them).
  "webrec.recent": v.unknown(),
  // Decision 057: recordings heard offline (or their answers) wait in IndexedDB.
  "webrec.kept": v.boolean(),
  [cloudLibraryKey]: v.object({
    tags: v.array(libraryTagSchema),
    storedAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
  // Spec 002 §3 user flag "shazamcount (saved from the tag count)".
  shazamcount: v.pipe(v.number(), v.integer(), v.minValue(0)),
} satisfies Record<string, v.GenericSchema>;

export type StorageKey = keyof typeof dataSchemas;

export type StorageData<K extends StorageKey> = v.InferOutput<(typeof dataSchemas)[K]>;

export type StorageFailure = { ok: false; error: SiteError };
export type StorageResult<T> = { ok: true; value: T } | StorageFailure;

export type ConnectionEvent = { type: "added" | "removed" | "connection-change"; connected: boolean };
export type ConnectionListener = (event: ConnectionEvent) => void;

/** The part of `window` the cross-tab watch needs. */
export type StorageEventTarget = {
  addEventListener(type: "storage", listener: (event: StorageEvent) => void): void;
  removeEventListener(type: "storage", listener: (event: StorageEvent) => void): void;
};

export type SiteStorageOptions = {
  /** Returns the Storage to use; may throw (browsers throw when cookies are disabled). Default: `localStorage`. */
  storage?: () => Storage;
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
};

export type SiteStorage = {
  get<K extends StorageKey>(key: K): StorageResult<StorageData<K> | undefined>;
  set<K extends StorageKey>(
    key: K,
    data: StorageData<K>,
    options?: { expiresInMs?: number },
  ): StorageResult<void>;
  remove(key: StorageKey): StorageResult<void>;
  /** Whether storage works at all (a write and a removal succeed). */
  isAvailable(): boolean;
  /** Connection added/removed in this tab, and connection-change from this and other tabs. */
  onConnection(listener: ConnectionListener): () => void;
  /** Follows the `storage` event so other tabs' connection changes reach `onConnection`. */
  watchOtherTabs(target: StorageEventTarget): () => void;
};

const recordSchema = v.object({ data: v.unknown(), expires: v.number() });

export function createSiteStorage(options: SiteStorageOptions = {}): SiteStorage {
  const getStorage = options.storage ?? (() => globalThis.localStorage);
  const now = options.now ?? Date.now;
  const listeners = new Set<ConnectionListener>();
  let migrated = false;
  let lastConnected: boolean | undefined;

  function open(): StorageResult<Storage> {
    let storage: Storage;
    try {
      storage = getStorage();
      if (!storage) return unavailable("no localStorage");
    } catch (error) {
      return unavailable(error);
    }
    if (!migrated) {
      try {
        migrate(storage, now());
        migrated = true;
      } catch (error) {
        return unavailable(error);
      }
    }
    return { ok: true, value: storage };
  }

  /** Spec 000 §4 "connected when an access token is stored": one that has not expired. */
  const isConnected = (data: unknown) =>
    connectionStateOf(data as ConnectionRecord | undefined, now()) === "connected";

  function readConnected(storage: Storage): boolean {
    return isConnected(readRecord(storage, connectionKey, now()));
  }

  function emit(event: ConnectionEvent) {
    for (const listener of listeners) listener(event);
  }

  function learnConnected(storage: Storage) {
    if (lastConnected === undefined) lastConnected = safely(() => readConnected(storage), false);
  }

  function connectionChanged(connected: boolean, local: boolean) {
    if (connected === lastConnected) return;
    lastConnected = connected;
    if (local) emit({ type: connected ? "added" : "removed", connected });
    emit({ type: "connection-change", connected });
  }

  return {
    get(key) {
      if (!key) return missingKey();
      const opened = open();
      if (!opened.ok) return opened;
      try {
        return {
          ok: true,
          value: readRecord(opened.value, key, now()) as StorageData<typeof key> | undefined,
        };
      } catch (error) {
        return unavailable(error);
      }
    },
    set(key, data, setOptions = {}) {
      if (!key) return missingKey();
      const checked = v.safeParse(dataSchemas[key], data);
      if (!checked.success) {
        return {
          ok: false,
          error: new SiteError("invalidparam", `Bad data for ${key}: ${v.summarize(checked.issues)}`),
        };
      }
      const opened = open();
      if (!opened.ok) return opened;
      const lifetime = setOptions.expiresInMs ?? (key === "webId" ? webIdLifetimeMs : storageDefaultExpiryMs);
      if (key === connectionKey) learnConnected(opened.value);
      try {
        opened.value.setItem(key, JSON.stringify({ data, expires: now() + lifetime }));
      } catch (error) {
        return unavailable(error);
      }
      if (key === connectionKey) connectionChanged(isConnected(data), true);
      return { ok: true, value: undefined };
    },
    remove(key) {
      if (!key) return missingKey();
      const opened = open();
      if (!opened.ok) return opened;
      if (key === connectionKey) learnConnected(opened.value);
      try {
        opened.value.removeItem(key);
      } catch (error) {
        return unavailable(error);
      }
      if (key === connectionKey) connectionChanged(false, true);
      return { ok: true, value: undefined };
    },
    isAvailable() {
      const opened = open();
      if (!opened.ok) return false;
      const probe = "storage.probe";
      try {
        opened.value.setItem(probe, probe);
        opened.value.removeItem(probe);
        return true;
      } catch {
        return false;
      }
    },
    onConnection(listener) {
      const opened = open();
      if (opened.ok) learnConnected(opened.value);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    watchOtherTabs(target) {
      const atStart = open();
      if (atStart.ok) learnConnected(atStart.value);
      const onStorage = (event: StorageEvent) => {
        // key null: another tab cleared the whole store.
        if (event.key !== null && event.key !== connectionKey) return;
        const opened = open();
        if (!opened.ok || (event.storageArea && event.storageArea !== opened.value)) return;
        if (lastConnected === undefined && event.key === connectionKey) {
          lastConnected =
            event.oldValue !== null && isConnected(parseRecord(event.oldValue, connectionKey, now()));
        }
        connectionChanged(
          safely(() => readConnected(opened.value), false),
          false,
        );
      };
      target.addEventListener("storage", onStorage);
      return () => target.removeEventListener("storage", onStorage);
    },
  };
}

/**
 * Reads a live record. An expired, malformed or foreign record is removed and reads as absent:
 * nothing can repair it, and leaving it would make every later read fail the same way.
 */
function readRecord(storage: Storage, key: StorageKey, now: number): unknown {
  const raw = storage.getItem(key);
  if (raw === null) return undefined;
  const data = parseRecord(raw, key, now);
  if (data === undefined) storage.removeItem(key);
  return data;
}

function parseRecord(raw: string, key: StorageKey, now: number): unknown {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const record = v.safeParse(recordSchema, json);
  if (!record.success || record.output.expires <= now) return undefined;
  const data = v.safeParse(dataSchemas[key], record.output.data);
  return data.success ? data.output : undefined;
}

/**
 * Spec 000 §4: on first use of format version 2 the store is cleared except the legacy keys kept.
 * A kept key survives only as a valid record; an older bare string id is wrapped into one.
 */
function migrate(storage: Storage, now: number) {
  if (storage.getItem(storageVersionKey) === String(storageFormatVersion)) return;
  const kept = new Map<string, string>();
  for (const key of legacyKeysKept) {
    const raw = storage.getItem(key);
    if (raw === null) continue;
    const asRecord = parseRecord(raw, key, now);
    if (asRecord !== undefined) kept.set(key, raw);
    else if (/^[A-Za-z0-9-]{1,100}$/.test(raw))
      kept.set(key, JSON.stringify({ data: raw, expires: now + webIdLifetimeMs }));
  }
  const keys: string[] = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (key !== null) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
  for (const [key, raw] of kept) storage.setItem(key, raw);
  storage.setItem(storageVersionKey, String(storageFormatVersion));
}

function missingKey(): StorageFailure {
  return { ok: false, error: new SiteError("invalidparam", "Missing key") };
}

function unavailable(cause: unknown): StorageFailure {
  const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return { ok: false, error: new SiteError("unsupported", `Local storage is unavailable (${reason})`) };
}

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/**
 * The visitor's web id, created when missing (spec 000 §4: "A visitor is new when no web id
 * exists"). When the server already knows the visitor's id (the edge's visitor cookie) that id
 * wins and is stored, so rollouts evaluated during SSR and in the browser bucket the same id.
 * Without storage the id lives for this page only and the visitor counts as new.
 */
export function ensureWebId(
  storage: SiteStorage,
  options: { serverWebId?: string; randomId?: () => string; untracked?: boolean } = {},
): { webId: string | undefined; newuser: boolean | undefined; stored: boolean } {
  // Global Privacy Control: no id, none stored, and one stored before is dropped.
  if (options.untracked) {
    storage.remove("webId");
    return { webId: undefined, newuser: undefined, stored: false };
  }
  const existing = storage.get("webId");
  const stored = existing.ok ? existing.value : undefined;
  const webId = options.serverWebId || stored || (options.randomId ?? (() => crypto.randomUUID()))();
  if (webId === stored) return { webId, newuser: false, stored: true };
  const saved = storage.set("webId", webId);
  return { webId, newuser: stored === undefined, stored: saved.ok };
}

/** Spec 001 §4: the streaming-service connection as the stored record says (read on every page, so not in connect.ts). */
export function connectionState(storage: SiteStorage, now = Date.now()): ConnectionState {
  const record = storage.get(connectionKey);
  return connectionStateOf(record.ok ? record.value : undefined, now);
}
