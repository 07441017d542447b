import * as v from "valibot";

/**
 * The proxy's cache by URL: what is stored and for how long (decided by the upstream's
 * Cache-Control), a bounded per-isolate memory tier, and the Workers Cache API behind it.
 *
 * - Only 200 answers are stored, and never one with Set-Cookie, `private`, `no-store`,
 *   `no-cache` or a `Vary` other than Accept-Encoding (the key is the URL alone).
 * - Only answers to shared calls are stored: a call that carries a visitor's credentials never
 *   reaches this (services-http.ts `forwardedHeaders`, decision 028).
 * - Lifetime: `s-maxage`, else `max-age`, less the upstream's `Age`. Without either, the spec's
 *   "successful results are cached" applies for a default lifetime.
 * - Past its lifetime a copy is kept for stale-if-error (the upstream's `stale-if-error=N`, else a
 *   default), except when the upstream said `must-revalidate` or `proxy-revalidate`.
 * - Bodies are kept as bytes; every caller gets a Response of its own built from them.
 */

/** An upstream answer held as bytes, so it can be handed to any number of callers. */
export type Answer = {
  status: number;
  headers: ReadonlyArray<readonly [string, string]>;
  body: Uint8Array<ArrayBuffer>;
};

/** A stored answer and its times (ms, on the proxy's clock). */
export type CachedAnswer = {
  answer: Answer;
  storedAt: number;
  freshUntil: number;
  staleUntil: number;
};

export type CacheControl = {
  maxAge: number | undefined;
  sMaxAge: number | undefined;
  staleIfError: number | undefined;
  noStore: boolean;
  noCache: boolean;
  private: boolean;
  public: boolean;
  mustRevalidate: boolean;
};

/** Parses a Cache-Control header. An unreadable number counts as 0 (the safe reading). */
export function parseCacheControl(value: string | null): CacheControl {
  const control: CacheControl = {
    maxAge: undefined,
    sMaxAge: undefined,
    staleIfError: undefined,
    noStore: false,
    noCache: false,
    private: false,
    public: false,
    mustRevalidate: false,
  };
  for (const part of (value ?? "").split(",")) {
    const [rawName = "", ...rest] = part.split("=");
    const name = rawName.trim().toLowerCase();
    const argument = rest
      .join("=")
      .trim()
      .replace(/^"(.*)"$/, "$1");
    switch (name) {
      case "max-age":
        control.maxAge = deltaSeconds(argument);
        break;
      case "s-maxage":
        control.sMaxAge = deltaSeconds(argument);
        break;
      case "stale-if-error":
        control.staleIfError = deltaSeconds(argument);
        break;
      case "no-store":
        control.noStore = true;
        break;
      case "no-cache":
        control.noCache = true;
        break;
      case "private":
        control.private = true;
        break;
      case "public":
        control.public = true;
        break;
      case "must-revalidate":
      case "proxy-revalidate":
        control.mustRevalidate = true;
        break;
    }
  }
  return control;
}

function deltaSeconds(argument: string): number {
  return /^\d+$/.test(argument) ? Number(argument) : 0;
}

export type StoragePlan =
  | { store: false; reason: string }
  | { store: true; ttlSeconds: number; staleSeconds: number };

export type StorageInput = {
  status: number;
  headers: Headers;
  defaultTtlSeconds: number;
  staleIfErrorSeconds: number;
};

/** Whether an upstream answer may be stored in the shared cache, and for how long. */
export function planStorage(input: StorageInput): StoragePlan {
  const { headers } = input;
  if (input.status !== 200) return { store: false, reason: `status ${input.status}` };
  if (headers.has("set-cookie")) return { store: false, reason: "set-cookie" };
  const vary = (headers.get("vary") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "" && name !== "accept-encoding");
  if (vary.length > 0) return { store: false, reason: "vary" };
  const control = parseCacheControl(headers.get("cache-control"));
  if (control.noStore) return { store: false, reason: "no-store" };
  if (control.private) return { store: false, reason: "private" };
  if (control.noCache) return { store: false, reason: "no-cache" };
  const lifetime = control.sMaxAge ?? control.maxAge ?? input.defaultTtlSeconds;
  const ttlSeconds = lifetime - deltaSeconds(headers.get("age") ?? "0");
  if (ttlSeconds <= 0) return { store: false, reason: "no lifetime left" };
  const staleSeconds = control.mustRevalidate ? 0 : (control.staleIfError ?? input.staleIfErrorSeconds);
  return { store: true, ttlSeconds, staleSeconds };
}

/** The times of a copy stored now under a plan. */
export function cachedAnswerOf(
  answer: Answer,
  plan: { ttlSeconds: number; staleSeconds: number },
  now: number,
): CachedAnswer {
  const freshUntil = now + plan.ttlSeconds * 1000;
  return { answer, storedAt: now, freshUntil, staleUntil: freshUntil + plan.staleSeconds * 1000 };
}

export type MemoryTierLimits = {
  /** Most entries kept; 0 turns the tier off. */
  maxEntries: number;
  /** Most bytes kept (bodies, headers and keys). */
  maxBytes: number;
  /** Largest single entry kept; bigger answers live only in the Cache API tier. */
  maxEntryBytes: number;
};

export type MemoryTier = {
  /** The copy under `key` unless it is past its stale-if-error window; marks it recently used. */
  get(key: string, now: number): CachedAnswer | undefined;
  /** Stores a copy, evicting the least recently used ones to stay within the limits. */
  set(key: string, value: CachedAnswer): boolean;
  delete(key: string): void;
  size(): { entries: number; bytes: number };
};

/** A least-recently-used map bounded by entries and bytes (a Map iterates in insertion order). */
export function createMemoryTier(limits: MemoryTierLimits): MemoryTier {
  const entries = new Map<string, { value: CachedAnswer; bytes: number }>();
  let bytes = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  }

  return {
    get(key, now) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (now >= entry.value.staleUntil) {
        bytes -= entry.bytes;
        return undefined;
      }
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      remove(key);
      const size = sizeOf(key, value.answer);
      if (limits.maxEntries <= 0 || size > limits.maxEntryBytes || size > limits.maxBytes) return false;
      while (entries.size >= limits.maxEntries || bytes + size > limits.maxBytes) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        remove(oldest.value);
      }
      entries.set(key, { value, bytes: size });
      bytes += size;
      return true;
    },
    delete: remove,
    size: () => ({ entries: entries.size, bytes }),
  };
}

/** Bytes an entry is charged: body, headers, key, and a fixed allowance for the objects. */
export function sizeOf(key: string, answer: Answer): number {
  let size = 64 + key.length + answer.body.byteLength;
  for (const [name, value] of answer.headers) size += name.length + value.length;
  return size;
}

export type SharedTier = {
  get(key: string, now: number): Promise<CachedAnswer | undefined>;
  put(key: string, value: CachedAnswer): Promise<void>;
  delete(key: string): Promise<void>;
};

/** Header that carries a stored copy's status, headers and times through the Cache API. */
const metaHeader = "x-services-cache-meta";

const metaSchema = v.object({
  status: v.literal(200),
  headers: v.array(v.tuple([v.string(), v.string()])),
  storedAt: v.pipe(v.number(), v.integer()),
  freshUntil: v.pipe(v.number(), v.integer()),
  staleUntil: v.pipe(v.number(), v.integer()),
});

/**
 * The Workers Cache API behind the memory tier. Copies are stored under `keyBase` + the URL's path
 * and query, kept by the Cache API for their lifetime plus the stale-if-error window, and
 * validated again when read back (a copy that does not fit is deleted and counts as a miss). The
 * Cache API is best effort: its failures are misses, never errors.
 */
export function createSharedTier(cache: Cache, keyBase: string): SharedTier {
  const keyOf = (key: string) => new Request(new URL(key, keyBase));

  async function remove(key: string) {
    try {
      await cache.delete(keyOf(key));
    } catch {
      // Best effort: an undeletable copy is still validated on every read.
    }
  }

  return {
    async get(key, now) {
      let response: Response | undefined;
      try {
        response = await cache.match(keyOf(key));
      } catch {
        return undefined;
      }
      if (!response) return undefined;
      const meta = readMeta(response.headers.get(metaHeader));
      if (!meta || response.status !== 200) {
        await response.body?.cancel();
        await remove(key);
        return undefined;
      }
      const body = new Uint8Array(await response.arrayBuffer());
      if (now >= meta.staleUntil) return undefined;
      return {
        answer: { status: meta.status, headers: meta.headers, body },
        storedAt: meta.storedAt,
        freshUntil: meta.freshUntil,
        staleUntil: meta.staleUntil,
      };
    },
    async put(key, value) {
      const meta: v.InferInput<typeof metaSchema> = {
        status: 200,
        headers: value.answer.headers.map(([name, headerValue]) => [name, headerValue]),
        storedAt: value.storedAt,
        freshUntil: value.freshUntil,
        staleUntil: value.staleUntil,
      };
      const keepSeconds = Math.max(1, Math.ceil((value.staleUntil - value.storedAt) / 1000));
      const headers = new Headers({
        "cache-control": `public, max-age=${keepSeconds}`,
        [metaHeader]: encodeURIComponent(JSON.stringify(meta)),
      });
      try {
        await cache.put(keyOf(key), new Response(value.answer.body, { status: 200, headers }));
      } catch {
        // Best effort: the memory tier still holds the copy.
      }
    },
    delete: remove,
  };
}

function readMeta(header: string | null): v.InferOutput<typeof metaSchema> | undefined {
  if (!header) return undefined;
  try {
    const parsed = v.safeParse(metaSchema, JSON.parse(decodeURIComponent(header)));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** The Workers Cache API where the runtime has one (`caches.default`), else none. */
export function defaultCache(): Cache | null {
  // The DOM lib's CacheStorage type hides the Workers-only `default`; plain Node has no `caches`.
  if (typeof caches === "undefined" || !("default" in caches)) return null;
  return (caches as CacheStorage & { default: Cache }).default;
}

export type CacheTier = "memory" | "cacheapi";

/** A copy held in one of the tiers, fresh or within its stale-if-error window. */
export type HeldCopy = { copy: CachedAnswer; tier: CacheTier };

/** Lets a Cache API write or delete finish after the answer; without it the proxy awaits them. */
export type WaitUntil = ((promise: Promise<unknown>) => void) | undefined;

export type CacheTiers = {
  /** The memory tier's copy of `key` while it is fresh. */
  freshInMemory(key: string): CachedAnswer | undefined;
  /** The copy stored last in either tier. */
  newest(key: string): Promise<HeldCopy | undefined>;
  /** Keeps a copy read from the Cache API in memory too. */
  keepInMemory(key: string, copy: CachedAnswer): void;
  store(key: string, copy: CachedAnswer, waitUntil: WaitUntil): Promise<void>;
  evict(key: string, waitUntil: WaitUntil): Promise<void>;
};

/** The memory tier in front of the Cache API tier (`cache` null: memory only). */
export function createCacheTiers(options: {
  memory: MemoryTierLimits;
  cache: Cache | null;
  keyBase: string;
  now: () => number;
}): CacheTiers {
  const { now } = options;
  const memory = createMemoryTier(options.memory);
  const shared = options.cache ? createSharedTier(options.cache, options.keyBase) : undefined;

  async function settle(work: Promise<void>, waitUntil: WaitUntil) {
    if (waitUntil) waitUntil(work);
    else await work;
  }

  return {
    freshInMemory(key) {
      const copy = memory.get(key, now());
      return copy && now() < copy.freshUntil ? copy : undefined;
    },
    async newest(key) {
      const inMemory = memory.get(key, now());
      const inCache = shared ? await shared.get(key, now()) : undefined;
      if (inCache && (!inMemory || inCache.storedAt > inMemory.storedAt))
        return { copy: inCache, tier: "cacheapi" };
      return inMemory ? { copy: inMemory, tier: "memory" } : undefined;
    },
    keepInMemory(key, copy) {
      memory.set(key, copy);
    },
    async store(key, copy, waitUntil) {
      memory.set(key, copy);
      if (shared) await settle(shared.put(key, copy), waitUntil);
    },
    async evict(key, waitUntil) {
      memory.delete(key);
      if (shared) await settle(shared.delete(key), waitUntil);
    },
  };
}
