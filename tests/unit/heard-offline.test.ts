import { describe, expect, test } from "vitest";
import { deliverKept } from "#app/offline/browser/deliver.ts";
import {
  announcementOf,
  claimed,
  claimLeaseMs,
  type HeardAnswer,
  holdsClaim,
  type KeptRecording,
  keepPlan,
  keptForMs,
  keptRecordingsMax,
  notificationOf,
  released,
  unexpired,
} from "#app/offline/browser/kept-recordings.ts";
import {
  isAmpPath,
  isOfflinePageMessage,
  isOfflinePagePath,
} from "#app/offline/browser/service-worker-protocol.ts";
import type { TrackLookup } from "#app/recognition/browser/match-service.ts";
import { SiteError } from "#rules/errors.ts";
import type { MatchRequestBody, WebrecMatchResponse } from "#rules/schemas/webrec.ts";
import { memoryKeptStore } from "./memory-kept-store";

// Heard offline, identified later (docs/decisions/057-heard-offline.md): the bounds of what is
// kept, the claim that makes a recording sent once by one of the senders (tabs, service worker),
// and what a send does with each answer.

const t0 = 1_700_000_000_000;
const texts = {
  identified: "Identified the song you heard offline: {{title}}",
  identifiedUntitled: "The song you heard offline has been identified",
  unidentified: "We couldn't identify the song you heard offline",
};

function recording(id: string, heardAt = t0, overrides: Partial<KeptRecording> = {}): KeptRecording {
  return { id, data: `c2ln${id}`, lang: "en", country: "GB", heardAt, texts, ...overrides };
}

const track: TrackLookup = {
  key: "503723567",
  alias: "menu-theme-enhanced",
  title: "Menu Theme - Enhanced",
  subtitle: "LupusMechanicus",
  durationMs: 648_008,
  properties: { bkgcolor: "1a2b3c", bkglight: false },
};

const matched: WebrecMatchResponse = {
  matches: [
    {
      trackId: track.key,
      weburl: `/track/${track.key}/${track.alias}`,
      offset: 1,
      timeskew: 0,
      frequencyskew: 0,
    },
  ],
};

describe("the bounds", () => {
  const at = (record: KeptRecording) => record.heardAt;

  test(`at most ${keptRecordingsMax} recordings: one more drops the oldest`, () => {
    const existing = Array.from({ length: keptRecordingsMax }, (_, i) => recording(`r${i}`, t0 + i * 1000));
    const plan = keepPlan(existing, recording("new", t0 + 60_000), at, t0 + 60_000);
    expect(plan.remove).toEqual(["r0"]);
    expect(plan.put.id).toBe("new");
  });

  test("fewer than the bound: nothing is dropped", () => {
    const existing = Array.from({ length: keptRecordingsMax - 1 }, (_, i) => recording(`r${i}`, t0 + i));
    expect(keepPlan(existing, recording("new", t0 + 100), at, t0 + 100).remove).toEqual([]);
  });

  test("a week after it was heard, a recording is dropped unsent", () => {
    const old = recording("old", t0);
    const fresh = recording("fresh", t0 + 1000);
    const now = t0 + keptForMs;
    expect(unexpired([fresh, old], at, now)).toEqual({ kept: [fresh], expired: ["old"] });
    expect(keepPlan([old, fresh], recording("new", now), at, now).remove).toEqual(["old"]);
  });

  test("kept again under its id, a recording replaces itself and drops nothing", () => {
    const existing = Array.from({ length: keptRecordingsMax }, (_, i) => recording(`r${i}`, t0 + i));
    expect(keepPlan(existing, recording("r5", t0 + 5), at, t0 + 10).remove).toEqual([]);
  });

  test("the recordings to send come oldest first", () => {
    const kept = unexpired([recording("b", t0 + 2), recording("a", t0 + 1)], at, t0 + 3).kept;
    expect(kept.map((r) => r.id)).toEqual(["a", "b"]);
  });
});

describe("the claim", () => {
  test("an unclaimed recording is claimed for the lease", () => {
    expect(claimed(recording("r"), "me", t0)?.claim).toEqual({ token: "me", until: t0 + claimLeaseMs });
  });

  test("another sender's claim holds until its lease ends", () => {
    const theirs = claimed(recording("r"), "them", t0);
    if (!theirs) throw new Error("not claimed");
    expect(claimed(theirs, "me", t0 + claimLeaseMs - 1)).toBeUndefined();
    expect(claimed(theirs, "me", t0 + claimLeaseMs)?.claim?.token).toBe("me");
  });

  test("only its holder releases it, and only its holder answers", () => {
    const theirs = claimed(recording("r"), "them", t0);
    if (!theirs) throw new Error("not claimed");
    expect(released(theirs, "me")).toEqual(theirs);
    expect(released(theirs, "them").claim).toBeUndefined();
    expect(holdsClaim(theirs, "them")).toBe(true);
    expect(holdsClaim(theirs, "me")).toBe(false);
    expect(holdsClaim(undefined, "them")).toBe(false);
  });
});

describe("sending", () => {
  function sender(
    store: ReturnType<typeof memoryKeptStore>,
    token: string,
    answer: (body: MatchRequestBody) => Promise<WebrecMatchResponse>,
    options: { now?: () => number; lookup?: () => Promise<TrackLookup>; announces?: boolean } = {},
  ) {
    return deliverKept({
      store,
      match: answer,
      lookupTrack: options.lookup ?? (async () => track),
      now: options.now ?? (() => t0 + 1000),
      token,
      announces: options.announces ?? false,
    });
  }

  test("each recording is sent under its own id; its answer replaces it", async () => {
    const store = memoryKeptStore();
    await store.keep(recording("one", t0), t0);
    await store.keep(recording("two", t0 + 1), t0 + 1);
    const sent: MatchRequestBody[] = [];
    const outcome = await sender(store, "tab", async (body) => {
      sent.push(body);
      return body.sessionId === "one" ? matched : { matches: [] };
    });
    expect(sent).toEqual([
      { data: "c2lnone", sessionId: "one", lang: "en", country: "GB" },
      { data: "c2lntwo", sessionId: "two", lang: "en", country: "GB" },
    ]);
    expect(outcome).toMatchObject({ waiting: 0, offline: false });
    expect(store.kept.size).toBe(0);
    expect(await store.takeAnswers(t0 + 2000)).toEqual([
      {
        outcome: "matched",
        id: "one",
        lang: "en",
        heardAt: t0,
        answeredAt: t0 + 1000,
        announced: false,
        texts,
        trackId: track.key,
        weburl: `/track/${track.key}/${track.alias}`,
        title: track.title,
        artist: track.subtitle,
      },
      {
        outcome: "unidentified",
        id: "two",
        lang: "en",
        heardAt: t0 + 1,
        answeredAt: t0 + 1000,
        announced: false,
        texts,
      },
    ]);
    // Taken once: a second taker (another tab) finds none.
    expect(await store.takeAnswers(t0 + 2000)).toEqual([]);
  });

  test("two senders at once (a tab and the service worker) send each recording once", async () => {
    const store = memoryKeptStore();
    for (const id of ["a", "b", "c"]) await store.keep(recording(id, t0), t0);
    const sent: string[] = [];
    // Each answer waits until both senders have a request in flight: they overlap for certain.
    let bothSending = () => {};
    const overlapping = new Promise<void>((resolve) => {
      bothSending = resolve;
    });
    const slowly = async (body: MatchRequestBody) => {
      sent.push(body.sessionId);
      if (sent.length >= 2) bothSending();
      await overlapping;
      return matched;
    };
    const [tab, worker] = await Promise.all([sender(store, "tab", slowly), sender(store, "worker", slowly)]);
    expect(sent.sort()).toEqual(["a", "b", "c"]);
    expect(tab.answered.length + worker.answered.length).toBe(3);
    expect((await store.takeAnswers(t0 + 2000)).map((answer) => answer.id).sort()).toEqual(["a", "b", "c"]);
  });

  test("no network: the recording is given back, and the next sender sends it", async () => {
    const store = memoryKeptStore();
    await store.keep(recording("r"), t0);
    const offline = await sender(store, "worker", async () => {
      throw new SiteError("network", "POST /services/webrec/match failed: Failed to fetch");
    });
    expect(offline).toEqual({ answered: [], waiting: 1, offline: true });
    expect(store.kept.get("r")?.claim).toBeUndefined();
    const online = await sender(store, "tab", async () => matched);
    expect(online.answered.map((answer) => answer.id)).toEqual(["r"]);
  });

  test.each([
    ["busy (503)", new SiteError("serviceerror", "POST: 503", { status: 503 })],
    ["over the limit (429)", new SiteError("serviceerror", "POST: 429", { status: 429 })],
    ["a timeout", new SiteError("timeout", "POST timed out")],
  ])("%s: kept for a later try, the run stops there", async (_name, error) => {
    const store = memoryKeptStore();
    await store.keep(recording("a", t0), t0);
    await store.keep(recording("b", t0 + 1), t0 + 1);
    const sent: string[] = [];
    const outcome = await sender(store, "tab", async (body) => {
      sent.push(body.sessionId);
      throw error;
    });
    expect(sent).toEqual(["a"]);
    expect(outcome).toEqual({ answered: [], waiting: 2, offline: false });
    expect([...store.kept.keys()].sort()).toEqual(["a", "b"]);
  });

  test("a refused signature (400) is answered as unidentified: it would be refused again", async () => {
    const store = memoryKeptStore();
    await store.keep(recording("r"), t0);
    const outcome = await sender(store, "tab", async () => {
      throw new SiteError("serviceerror", "POST: 400", { status: 400, body: '{"error":"invalidparam"}' });
    });
    expect(outcome.answered.map((answer) => answer.outcome)).toEqual(["unidentified"]);
    expect(store.kept.size).toBe(0);
  });

  test("without the track lookup the match stands, untitled", async () => {
    const store = memoryKeptStore();
    await store.keep(recording("r"), t0);
    const outcome = await sender(store, "tab", async () => matched, {
      lookup: async () => {
        throw new SiteError("network", "GET failed");
      },
    });
    const [answer] = outcome.answered;
    expect(answer).toMatchObject({ outcome: "matched", trackId: track.key });
    expect(answer && "title" in answer).toBe(false);
  });

  test("a sender whose lease ran out and whose recording another claimed writes nothing", async () => {
    const store = memoryKeptStore();
    await store.keep(recording("r"), t0);
    let now = t0;
    const late = sender(
      store,
      "stalled",
      async () => {
        // Past the lease, another sender takes the recording and answers it.
        now = t0 + claimLeaseMs + 1;
        await sender(store, "other", async () => ({ matches: [] }), { now: () => now });
        return matched;
      },
      { now: () => now },
    );
    const outcome = await late;
    expect(outcome.answered).toEqual([]);
    expect((await store.takeAnswers(now)).map((answer) => answer.outcome)).toEqual(["unidentified"]);
  });

  test("the service worker that notifies writes its answers as announced", async () => {
    const store = memoryKeptStore();
    await store.keep(recording("r"), t0);
    await sender(store, "worker", async () => matched, { announces: true });
    expect((await store.takeAnswers(t0 + 2000))[0]?.announced).toBe(true);
  });
});

describe("the announcement", () => {
  const base = { id: "r", lang: "fr", heardAt: t0, answeredAt: t0, announced: false, texts };
  const identified: HeardAnswer = {
    ...base,
    outcome: "matched",
    trackId: "1",
    weburl: "/track/1/song",
    title: "Song",
  };

  test("names the song when its title is known, in the language it was kept in", () => {
    expect(announcementOf(identified)).toBe("Identified the song you heard offline: Song");
    expect(announcementOf({ ...identified, title: undefined })).toBe(texts.identifiedUntitled);
    expect(announcementOf({ ...base, outcome: "unidentified" })).toBe(texts.unidentified);
  });

  test("its notification opens the song's page (else the identify page) in that language, one per recording", () => {
    expect(notificationOf(identified, "text")).toEqual({
      title: "Tunewave",
      options: { body: "text", tag: "heard-offline-r", data: { url: "/fr/track/1/song" } },
    });
    expect(notificationOf({ ...base, lang: "en", outcome: "unidentified" }, "t").options.data.url).toBe(
      "/identify",
    );
  });
});

describe("the offline page's address", () => {
  test.each([
    ["/offline", true],
    ["/fr/offline", true],
    ["/pt-br/offline", true],
    ["/en/offline", false],
    ["/xx/offline", false],
    ["/offline/more", false],
    ["/charts", false],
  ])("%s: %s", (path, expected) => {
    expect(isOfflinePagePath(path)).toBe(expected);
    expect(isOfflinePageMessage({ type: "offline-page", path })).toBe(expected);
  });
});

test.each([
  ["/amp/track/1/song", true],
  ["/de/amp/track/1/song", true],
  ["/amp", true],
  ["/track/1/amplifier", false],
  ["/ampersand", false],
])("the worker leaves AMP pages alone: %s %s", (path, expected) => {
  expect(isAmpPath(path)).toBe(expected);
});
