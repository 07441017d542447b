import * as v from "valibot";
import { afterEach, describe, expect, test, vi } from "vitest";
import { clearSignedInStorage } from "#app/account/browser/auth.ts";
import {
  cloudTagId,
  cloudTrackLookupConcurrency,
  createCloudLibrary,
} from "#app/library/browser/cloud-library.ts";
import { recordsQueryBody } from "#app/library/browser/cloudkit-database.ts";
import { cloudLibraryKey, createSiteStorage, type SiteStorage } from "#app/shell/browser/storage.ts";
import type { CloudKitConfig } from "#rules/account.ts";
import {
  cloudLibraryZone,
  cloudQueryPageSize,
  cloudRequestTimeoutMs,
  libraryTagSchema,
  noMorePages,
  tagPageSize,
  unknownLocation,
} from "#rules/library.ts";
import { memoryStorage } from "./memory-storage";

// Spec 002 §3/§6/§7/§8/§9: My Library from CloudKit, against a stand-in CloudKit private database
// and a stand-in track service, both behind one injected fetch that records every request.

const config: CloudKitConfig = {
  container: "iCloud.com.tunewave.web",
  apiToken: "a".repeat(64),
  environment: "production",
};
const signInPage = "https://idmsa.apple.com/IDMSWebAuth/signin?appIdKey=test";
const day = 86_400_000;
const newest = Date.UTC(2026, 10, 20);

/** A Track record as records/query answers it with numbersAsStrings (Int64 as a string). */
function trackRecord(
  index: number,
  key = String(1000 + index),
  date: number | string = newest - index * day,
) {
  return {
    recordName: `5F0C1A2B-0000-4000-8000-${String(index).padStart(12, "0")}`,
    recordType: "Track",
    recordChangeTag: "k1",
    fields: { ShazamKey: { value: key, type: "INT64" }, Date: { value: date, type: "TIMESTAMP" } },
    created: { timestamp: newest, userRecordName: "_abc" },
  };
}
const records = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => trackRecord(from + i));

/** What /services/track/v1/…/web/{key} answers (more than a list item needs). */
function trackAnswer(key: string, type = "MUSIC") {
  return {
    key,
    title: `Song ${key}`,
    subtitle: `Artist ${key}`,
    heading: { title: `Song ${key}`, subtitle: `Artist ${key}` },
    type,
    images: {
      default: `https://img.test/${key}/400x400.jpg`,
      coverart: `https://img.test/${key}/300x300.jpg`,
      template: `https://img.test/${key}/{w}x{h}.jpg`,
      background: `https://img.test/${key}/800x800.jpg`,
      joecolor: "b:1a2b3c",
    },
    url: `/track/${key}/song-${key}`,
    alias: `song-${key}`,
    artists: [{ id: "42", adamid: "4200" }],
    trackadamid: `9${key}`,
    properties: {
      numberOfShazams: 7,
      bkgcolor: "1a2b3c",
      bkglight: false,
      bkgblack: false,
      whiteContrast: 9,
    },
    stores: { apple: { previewurl: `https://audio.test/${key}.ogg`, explicit: false, actions: [] } },
  };
}

type Pages = Record<string, { records: unknown[]; continuationMarker?: string }>;
type Recorded = { method: string; url: URL; body: unknown };

/**
 * CloudKit and the track service as a test sets them. `zones`/`query`/`track` override an answer;
 * by default the library zone exists, `pages` answers records/query by continuationMarker ("" for
 * the first page), and every key is a MUSIC track.
 */
function service(
  options: {
    pages?: Pages;
    zones?: () => Promise<Response> | Response;
    query?: (body: { continuationMarker?: string }) => Promise<Response> | Response;
    track?: (key: string) => Promise<Response> | Response;
  } = {},
) {
  const requests: Recorded[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const pages = options.pages ?? { "": { records: records(0, 3) } };
  const fetch = async (address: string, init?: RequestInit): Promise<Response> => {
    const url = new URL(address, "https://www.tunewave.test");
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    requests.push({ method: init?.method ?? "GET", url, body });
    if (url.host === "api.apple-cloudkit.com") {
      if (url.pathname.endsWith("/zones/list")) {
        return options.zones
          ? options.zones()
          : Response.json({
              zones: [
                { zoneID: { zoneName: "_defaultZone", ownerRecordName: "_abc" }, syncToken: "1" },
                { zoneID: { zoneName: cloudLibraryZone, ownerRecordName: "_abc" }, syncToken: "2" },
              ],
            });
      }
      if (url.pathname.endsWith("/records/query")) {
        if (options.query) return options.query(body);
        const page = pages[body.continuationMarker ?? ""];
        return page
          ? Response.json(page)
          : Response.json({ serverErrorCode: "BAD_REQUEST" }, { status: 400 });
      }
    }
    const key = /^\/services\/track\/v1\/en\/GB\/web\/(\d+)$/.exec(url.pathname)?.[1];
    if (!key) return new Response("no such address", { status: 404 });
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    try {
      await Promise.resolve();
      return options.track ? await options.track(key) : Response.json(trackAnswer(key));
    } finally {
      inFlight -= 1;
    }
  };
  const cloudKitRequests = () => requests.filter((r) => r.url.host === "api.apple-cloudkit.com");
  const trackRequests = () => requests.filter((r) => r.url.pathname.startsWith("/services/track/"));
  return { fetch, requests, cloudKitRequests, trackRequests, mostInFlight: () => mostInFlight };
}

function setUp(
  stand: ReturnType<typeof service>,
  options: { storage?: SiteStorage; token?: string | undefined } = {},
) {
  const storage = options.storage ?? newStorage();
  const token = "token" in options ? options.token : "web+auth/token";
  const library = createCloudLibrary({
    config,
    fetch: stand.fetch,
    storage,
    token: () => token,
    lang: "en",
    country: "GB",
    now: () => newest + 5,
  });
  return { library, storage };
}

/** The site's storage over one in-memory Storage (the getter is asked on every operation). */
function newStorage(): SiteStorage {
  const backing = memoryStorage();
  return createSiteStorage({ storage: () => backing, now: () => newest });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("spec 002 §7 zones/list: the library zone", () => {
  test("a GET of the private database with the API token and the web auth token", async () => {
    const stand = service();
    const { library } = setUp(stand);
    expect(await library.zone()).toEqual({ status: "ok", hasLibraryZone: true });
    expect(stand.requests).toHaveLength(1);
    const [{ method, url }] = stand.requests as [Recorded];
    expect(method).toBe("GET");
    expect(url.origin + url.pathname).toBe(
      "https://api.apple-cloudkit.com/database/1/iCloud.com.tunewave.web/production/private/zones/list",
    );
    expect(url.searchParams.get("ckAPIToken")).toBe(config.apiToken);
    expect(url.searchParams.get("ckWebAuthToken")).toBe("web+auth/token");
  });

  test.each([
    ["no zones at all", [], false],
    ["only the default zone", [{ zoneID: { zoneName: "_defaultZone" } }], false],
    [
      "shazam-library failed to fetch (a Zone Fetch Error Dictionary)",
      [{ zoneID: { zoneName: cloudLibraryZone }, serverErrorCode: "ZONE_NOT_FOUND", reason: "gone" }],
      false,
    ],
    [
      "shazam-library among others",
      [{ zoneID: { zoneName: "x" } }, { zoneID: { zoneName: cloudLibraryZone } }],
      true,
    ],
  ])("%s → hasLibraryZone %s", async (_, zones, expected) => {
    const { library } = setUp(service({ zones: () => Response.json({ zones }) }));
    expect(await library.zone()).toEqual({ status: "ok", hasLibraryZone: expected });
  });

  test("no library zone: an empty library, not an error, and no query is made", async () => {
    const stand = service({ zones: () => Response.json({ zones: [] }) });
    const { library } = setUp(stand);
    expect(await library.page()).toEqual({
      status: "ok",
      fromCache: false,
      hasLibraryZone: false,
      tags: [],
      marker: undefined,
    });
    expect(await library.tags()).toMatchObject({
      status: "ok",
      hasLibraryZone: false,
      tags: [],
      start: noMorePages,
    });
    expect(stand.requests.map((r) => r.url.pathname.split("/").slice(-2).join("/"))).toEqual([
      "zones/list",
      "zones/list",
    ]);
  });

  test("zones/list has 45 s before it counts as failed (spec 002 §9)", async () => {
    vi.useFakeTimers();
    const { library } = setUp(service({ zones: () => new Promise<Response>(() => {}) }));
    let answer: unknown;
    // A fetch that never answers: only the timeout's abort can end it. The stand-in ignores the
    // signal, so the library's own timer has to win.
    void library.zone().then((result) => {
      answer = result;
    });
    await vi.advanceTimersByTimeAsync(cloudRequestTimeoutMs - 1);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toMatchObject({ status: "failed", error: { type: "timeout" } });
  });
});

describe("spec 002 §7 records/query", () => {
  test("the body: 250 records of the zone, numbers as strings, not zone-wide, Track by Date descending", async () => {
    const stand = service({
      pages: {
        "": { records: records(0, 2), continuationMarker: "marker-1" },
        "marker-1": { records: records(2, 3) },
      },
    });
    const { library } = setUp(stand);
    const first = await library.page();
    expect(first).toMatchObject({ status: "ok", marker: "marker-1" });
    const second = await library.page("marker-1");
    expect(second).toMatchObject({ status: "ok", marker: undefined });

    const queries = stand.cloudKitRequests().filter((r) => r.url.pathname.endsWith("/records/query"));
    expect(queries.map((q) => q.method)).toEqual(["POST", "POST"]);
    expect(queries[0]?.url.pathname).toBe(
      "/database/1/iCloud.com.tunewave.web/production/private/records/query",
    );
    expect(queries[0]?.url.searchParams.get("ckWebAuthToken")).toBe("web+auth/token");
    // toStrictEqual: no other key, and no continuationMarker at all on the first page.
    expect(queries[0]?.body).toStrictEqual({
      zoneID: { zoneName: "shazam-library" },
      resultsLimit: 250,
      numbersAsStrings: true,
      zoneWide: false,
      query: { recordType: "Track", sortBy: [{ fieldName: "Date", ascending: false }] },
    });
    expect(queries[1]?.body).toStrictEqual({
      ...(queries[0]?.body as object),
      continuationMarker: "marker-1",
    });
    expect(recordsQueryBody().resultsLimit).toBe(cloudQueryPageSize);
  });

  test("each record becomes a library item: key, Date as the tag time, the track, location unknown", async () => {
    const { library } = setUp(service({ pages: { "": { records: records(0, 2) } } }));
    const page = await library.page();
    if (page.status !== "ok") throw new Error(page.status);
    expect(page.tags.map((tag) => v.parse(libraryTagSchema, tag))).toEqual(page.tags);
    expect(page.tags[0]).toEqual({
      tagid: "5F0C1A2B-0000-4000-8000-000000000000",
      key: "1000",
      timestamp: newest,
      location: unknownLocation,
      track: {
        key: "1000",
        title: "Song 1000",
        subtitle: "Artist 1000",
        alias: "song-1000",
        url: "/track/1000/song-1000",
        images: {
          default: "https://img.test/1000/400x400.jpg",
          coverart: "https://img.test/1000/300x300.jpg",
          template: "https://img.test/1000/{w}x{h}.jpg",
        },
        artists: [{ id: "42", adamid: "4200" }],
        trackadamid: "91000",
        previewurl: "https://audio.test/1000.ogg",
        properties: { bkgcolor: "1a2b3c", bkglight: false },
      },
    });
    expect(page.tags[1]).toMatchObject({ key: "1001", timestamp: newest - day });
  });

  const base = trackRecord(0);
  test.each([
    [
      "ShazamKey as a string of digits (numbersAsStrings)",
      { ShazamKey: { value: "123" }, Date: { value: newest } },
      { key: "123", timestamp: newest },
    ],
    [
      "ShazamKey as a number",
      { ShazamKey: { value: 123 }, Date: { value: newest } },
      { key: "123", timestamp: newest },
    ],
    [
      "Date as a string of ms",
      { ShazamKey: { value: "123" }, Date: { value: String(newest) } },
      { key: "123", timestamp: newest },
    ],
    ["ShazamKey not a number", { ShazamKey: { value: "12a" }, Date: { value: newest } }, undefined],
    ["ShazamKey negative", { ShazamKey: { value: -5 }, Date: { value: newest } }, undefined],
    ["Date not ms", { ShazamKey: { value: "123" }, Date: { value: "2026-11-20" } }, undefined],
    ["Date fractional", { ShazamKey: { value: "123" }, Date: { value: 1.5 } }, undefined],
    ["no ShazamKey", { Date: { value: newest } }, undefined],
    ["no Date", { ShazamKey: { value: "123" } }, undefined],
  ])("record fields: %s", async (_, fields, expected) => {
    const { library } = setUp(service({ pages: { "": { records: [{ ...base, fields }] } } }));
    const page = await library.page();
    expect(page).toMatchObject({ status: "ok", fromCache: false });
    if (page.status !== "ok") return;
    expect(page.tags.map(({ key, timestamp }) => ({ key, timestamp }))).toEqual(expected ? [expected] : []);
  });

  test.each([
    ["another record type", { ...base, recordType: "Playlist" }],
    ["a deleted record", { ...base, deleted: true }],
    ["a Record Fetch Error Dictionary", { recordName: "x", reason: "no", serverErrorCode: "NOT_FOUND" }],
    ["not a record", "Track"],
  ])("%s is left out; the records around it are not", async (_, odd) => {
    const { library } = setUp(service({ pages: { "": { records: [trackRecord(1), odd, trackRecord(2)] } } }));
    const page = await library.page();
    expect(page).toMatchObject({ status: "ok", tags: [{ key: "1001" }, { key: "1002" }] });
  });

  test("a record name that is not a tag id gets a stable digest id", async () => {
    const odd = { ...trackRecord(0), recordName: "tag 1/ü" };
    const { library } = setUp(service({ pages: { "": { records: [odd] } } }));
    const page = await library.page();
    if (page.status !== "ok") throw new Error(page.status);
    const id = page.tags[0]?.tagid;
    expect(id).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
    expect(await cloudTagId("tag 1/ü")).toBe(id);
    expect(await cloudTagId("tag 1/u")).not.toBe(id);
  });
});

describe("spec 002 §3 the tracks of the cloud list", () => {
  test("one track request per key, HIDDEN tracks and unknown keys dropped, the order kept", async () => {
    const stand = service({
      pages: { "": { records: records(0, 4) } },
      track: (key) => {
        if (key === "1001") return Response.json({ type: "HIDDEN" });
        if (key === "1002") return Response.json({ error: "notfound", message: "No track" }, { status: 404 });
        return Response.json(trackAnswer(key));
      },
    });
    const { library } = setUp(stand);
    const page = await library.page();
    expect(page).toMatchObject({ status: "ok", tags: [{ key: "1000" }, { key: "1003" }] });
    expect(stand.trackRequests().map((r) => r.url.pathname)).toEqual([
      "/services/track/v1/en/GB/web/1000",
      "/services/track/v1/en/GB/web/1001",
      "/services/track/v1/en/GB/web/1002",
      "/services/track/v1/en/GB/web/1003",
    ]);
  });

  test("a song tagged twice is asked for once and listed twice", async () => {
    const stand = service({ pages: { "": { records: [trackRecord(0, "77"), trackRecord(1, "77")] } } });
    const { library } = setUp(stand);
    expect(await library.page()).toMatchObject({ tags: [{ key: "77" }, { key: "77" }] });
    expect(stand.trackRequests()).toHaveLength(1);
  });

  test(`at most ${cloudTrackLookupConcurrency} track requests at once`, async () => {
    const stand = service({
      pages: { "": { records: records(0, 40) } },
      track: (key) => new Promise((resolve) => setTimeout(() => resolve(Response.json(trackAnswer(key))), 1)),
    });
    const { library } = setUp(stand);
    const page = await library.page();
    expect(page).toMatchObject({ status: "ok" });
    if (page.status === "ok") expect(page.tags).toHaveLength(40);
    expect(stand.mostInFlight()).toBe(cloudTrackLookupConcurrency);
  });

  test("spec 002 §7 cloud variant: tags by start and count (defaults 0 and 20), only those tracks asked for", async () => {
    const stand = service({
      pages: {
        "": { records: records(0, cloudQueryPageSize), continuationMarker: "m2" },
        m2: { records: records(cloudQueryPageSize, cloudQueryPageSize + 10) },
      },
    });
    const { library } = setUp(stand);
    const first = await library.tags();
    expect(first).toMatchObject({ status: "ok", fromCache: false, start: tagPageSize });
    if (first.status !== "ok") return;
    expect(first.tags.map((t) => t.key)).toEqual(records(0, 20).map((r) => r.fields.ShazamKey.value));
    expect(stand.trackRequests()).toHaveLength(tagPageSize);

    // The second page comes from the query page already read: no new query.
    const queries = () => stand.cloudKitRequests().filter((r) => r.url.pathname.endsWith("/records/query"));
    const second = await library.tags(first.start);
    expect(second).toMatchObject({ status: "ok", start: 2 * tagPageSize, tags: { length: tagPageSize } });
    expect(queries()).toHaveLength(1);

    // Across the end of the first query page: the next one is asked with its marker.
    const across = await library.tags(240, 20);
    expect(across).toMatchObject({ status: "ok", start: noMorePages });
    if (across.status === "ok")
      expect(across.tags.map((t) => t.key)).toEqual([
        "1240",
        ...Array.from({ length: 19 }, (_, i) => String(1241 + i)),
      ]);
    expect(queries().map((q) => (q.body as { continuationMarker?: string }).continuationMarker)).toEqual([
      undefined,
      "m2",
    ]);
  });

  test("tags: the last page says start -1; start 0 reads the list afresh", async () => {
    const stand = service({ pages: { "": { records: records(0, 25) } } });
    const { library } = setUp(stand);
    expect(await library.tags(0, 20)).toMatchObject({ start: 20 });
    expect(await library.tags(20, 20)).toMatchObject({ start: noMorePages, tags: { length: 5 } });
    await library.tags(0, 20);
    const zoneLists = stand.cloudKitRequests().filter((r) => r.url.pathname.endsWith("/zones/list"));
    expect(zoneLists).toHaveLength(2);
  });

  test.each([
    [-1, 20],
    [0, 0],
    [1.5, 20],
  ])("tags(%s, %s) is refused without a request", async (start, count) => {
    const stand = service();
    const { library } = setUp(stand);
    expect(await library.tags(start, count)).toMatchObject({
      status: "failed",
      error: { type: "invalidparam" },
    });
    expect(stand.requests).toEqual([]);
  });
});

describe("spec 002 §8 a failed cloud query falls back to the cached list", () => {
  const failures: [string, Parameters<typeof service>[0], string][] = [
    [
      "records/query answers 500",
      { query: () => Response.json({ serverErrorCode: "INTERNAL_ERROR" }, { status: 500 }) },
      "serviceerror",
    ],
    [
      "records/query answers 503 TRY_AGAIN_LATER",
      { query: () => new Response("", { status: 503 }) },
      "serviceerror",
    ],
    ["records/query is not JSON", { query: () => new Response("<html>", { status: 200 }) }, "serviceerror"],
    ["records/query has no records", { query: () => Response.json({ continuationMarker: "x" }) }, "baddata"],
    ["the network fails", { query: () => Promise.reject(new TypeError("Failed to fetch")) }, "network"],
    ["zones/list answers 500", { zones: () => new Response("", { status: 500 }) }, "serviceerror"],
    ["zones/list has an unknown shape", { zones: () => Response.json({ zone: [] }) }, "baddata"],
    ["a track request answers 500", { track: () => new Response("", { status: 500 }) }, "serviceerror"],
  ];

  test.each(failures)("%s: the cached list, marked fromCache", async (_, failing, type) => {
    const storage = newStorage();
    const good = await setUp(service(), { storage }).library.page();
    if (good.status !== "ok") throw new Error(good.status);
    expect(good.tags).toHaveLength(3);

    const { library } = setUp(service({ pages: { "": { records: records(0, 3) } }, ...failing }), {
      storage,
    });
    expect(await library.page()).toEqual({
      status: "ok",
      fromCache: true,
      tags: good.tags,
      storedAt: newest + 5,
      marker: undefined,
      error: expect.objectContaining({ type }),
    });
    expect(await library.tags()).toMatchObject({
      status: "ok",
      fromCache: true,
      tags: good.tags,
      start: noMorePages,
    });
  });

  test.each(failures)("%s, nothing cached: a typed failure", async (_, failing, type) => {
    const { library } = setUp(service(failing));
    const page = await library.page();
    expect(page).toMatchObject({ status: "failed", error: { name: "SiteError", type } });
  });

  test("records/query has 45 s before the cached list is shown (spec 002 §9)", async () => {
    vi.useFakeTimers();
    const storage = newStorage();
    await setUp(service(), { storage }).library.page();
    const { library } = setUp(
      service({
        query: () => new Promise<Response>(() => {}),
      }),
      { storage },
    );
    let answer: unknown;
    void library.page().then((result) => {
      answer = result;
    });
    await vi.advanceTimersByTimeAsync(cloudRequestTimeoutMs - 1);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toMatchObject({
      status: "ok",
      fromCache: true,
      error: { type: "timeout" },
      tags: { length: 3 },
    });
  });

  test("the timeout aborts the request", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const stand = service();
    const { library } = setUp({
      ...stand,
      fetch: (_url, init) => {
        signal = init?.signal ?? undefined;
        return new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
        );
      },
    });
    const pending = library.zone();
    await vi.advanceTimersByTimeAsync(cloudRequestTimeoutMs);
    expect(signal?.aborted).toBe(true);
    expect(await pending).toMatchObject({ status: "failed", error: { type: "timeout" } });
  });

  test("only the first page is cached, and a later page's failure is not answered with it", async () => {
    const storage = newStorage();
    const stand = service({
      pages: { "": { records: records(0, 2), continuationMarker: "m2" }, m2: { records: records(2, 4) } },
    });
    await setUp(stand, { storage }).library.page();
    await setUp(stand, { storage }).library.page("m2");
    expect(storage.get(cloudLibraryKey)).toMatchObject({
      ok: true,
      value: { tags: [{ key: "1000" }, { key: "1001" }] },
    });

    const failing = service({ query: () => new Response("", { status: 500 }) });
    expect(await setUp(failing, { storage }).library.page("m2")).toMatchObject({
      status: "failed",
      error: { type: "serviceerror", status: 500 },
    });
  });

  test("tags(): a later page's failure is a failure, and asking again goes on from the same place", async () => {
    let down = false;
    const stand = service({
      query: (body) => {
        if (down) return new Response("", { status: 503 });
        return Response.json(
          body.continuationMarker
            ? { records: records(30, 40) }
            : { records: records(0, 30), continuationMarker: "m2" },
        );
      },
    });
    const { library } = setUp(stand);
    expect(await library.tags(0, 20)).toMatchObject({ status: "ok", start: 20 });
    down = true;
    expect(await library.tags(20, 20)).toMatchObject({ status: "failed", error: { status: 503 } });
    down = false;
    const again = await library.tags(20, 20);
    expect(again).toMatchObject({ status: "ok", start: noMorePages });
    if (again.status === "ok")
      expect(again.tags.map((t) => t.key)).toEqual(records(20, 40).map((r) => r.fields.ShazamKey.value));
  });
});

describe("the session ended: a distinct outcome, for the caller to sign out", () => {
  const ended: [string, Parameters<typeof service>[0], string | undefined][] = [
    [
      "421 AUTHENTICATION_REQUIRED on zones/list",
      {
        zones: () =>
          Response.json({ ckErrorCode: "AUTHENTICATION_REQUIRED", redirectURL: signInPage }, { status: 421 }),
      },
      signInPage,
    ],
    [
      "401 AUTHENTICATION_FAILED on records/query",
      {
        query: () =>
          Response.json({ serverErrorCode: "AUTHENTICATION_FAILED", reason: "no" }, { status: 401 }),
      },
      undefined,
    ],
    ["421 without a body", { query: () => new Response("", { status: 421 }) }, undefined],
  ];

  test.each(ended)("%s", async (_, failing, redirectUrl) => {
    const storage = newStorage();
    await setUp(service(), { storage }).library.page();
    const { library } = setUp(service(failing), { storage });
    // Not the cached list: that library is no longer this visitor's to see.
    expect(await library.page()).toEqual({ status: "session-ended", redirectUrl });
    expect(await library.tags()).toEqual({ status: "session-ended", redirectUrl });
  });

  test("no web auth token: session ended, and nothing is asked", async () => {
    const stand = service();
    const { library } = setUp(stand, { token: undefined });
    expect(await library.zone()).toEqual({ status: "session-ended", redirectUrl: undefined });
    expect(await library.page()).toEqual({ status: "session-ended", redirectUrl: undefined });
    expect(stand.requests).toEqual([]);
  });

  test("by default the token is the stored icloud.token", async () => {
    const stand = service();
    const storage = newStorage();
    storage.set("icloud.token", "from-storage");
    const library = createCloudLibrary({ config, fetch: stand.fetch, storage, lang: "en", country: "GB" });
    await library.zone();
    expect(stand.requests[0]?.url.searchParams.get("ckWebAuthToken")).toBe("from-storage");
  });
});

test("spec 002 §4 logout clears the cached tags (clearSignedInStorage)", async () => {
  const storage = newStorage();
  await setUp(service(), { storage }).library.page();
  expect(storage.get(cloudLibraryKey)).toMatchObject({ ok: true, value: { tags: { length: 3 } } });
  clearSignedInStorage(storage);
  expect(storage.get(cloudLibraryKey)).toEqual({ ok: true, value: undefined });
  const failing = service({ query: () => new Response("", { status: 500 }) });
  expect(await setUp(failing, { storage }).library.page()).toMatchObject({ status: "failed" });
});
