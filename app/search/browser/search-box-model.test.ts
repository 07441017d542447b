import { describe, expect, test, vi } from "vitest";
import {
  createSearchBoxReducer,
  initialSearchBoxModel,
  navigableOptions,
  optionOf,
  type SearchBoxAction,
  type SearchBoxItem,
  type SearchBoxModel,
  type SearchBoxPage,
  visibleGroups,
} from "#app/search/browser/search-box-model.ts";
import { SiteError } from "#rules/errors.ts";

function items(prefix: string, count: number, from = 0): SearchBoxItem[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${from + index}`,
    title: `${prefix} ${from + index}`,
    href: `/${prefix}/${from + index}`,
  }));
}

function page(prefix: string, count: number, next?: string, from = 0): SearchBoxPage {
  return { items: items(prefix, count, from), next };
}

const nextSongs = "/v1/catalog/gb/search?offset=3&term=a&types=songs";
const nextArtists = "/v1/catalog/gb/search?offset=3&term=a&types=artists";

/** Runs actions from the first model; every invalid transition is collected in `log`. */
function run(actions: SearchBoxAction[], start: SearchBoxModel = initialSearchBoxModel()) {
  const log = vi.fn();
  const reduce = createSearchBoxReducer(log);
  const model = actions.reduce(reduce, start);
  return { model, log };
}

const states = (model: SearchBoxModel) => ({
  recent: model.groups.recent.state,
  songs: model.groups.songs.state,
  artists: model.groups.artists.state,
});

const recents = (terms: string[]): SearchBoxAction => ({
  type: "recentsRead",
  result: { ok: true, value: terms },
});

describe("opening with an empty box shows the Recent group", () => {
  test.each([
    {
      name: "stored searches",
      terms: ["abba", "adele"],
      state: "SUCCESS",
      message: undefined,
      live: "recents",
    },
    { name: "none stored", terms: [], state: "EMPTY", message: "norecents", live: "recents" },
  ])("$name", ({ terms, state, message, live }) => {
    const { model, log } = run([{ type: "open" }, recents(terms)]);
    expect(model.open).toBe(true);
    expect(states(model)).toEqual({ recent: state, songs: "INIT", artists: "INIT" });
    expect(visibleGroups(model).map((view) => [view.name, view.message])).toEqual([["recent", message]]);
    expect(model.live?.message.kind).toBe(live);
    expect(log).not.toHaveBeenCalled();
  });

  test("a failed read rejects the Recent group only", () => {
    const failed: SearchBoxAction = {
      type: "recentsRead",
      result: { ok: false, error: new SiteError("unsupported", "no storage") },
    };
    const { model, log } = run([
      { type: "open" },
      failed,
      { type: "input", value: "a" },
      { type: "searchStarted", query: "a" },
      { type: "searchLoaded", query: "a", songs: page("song", 1), artists: page("artist", 1) },
    ]);
    expect(states(model)).toEqual({ recent: "HIDDEN", songs: "SUCCESS", artists: "SUCCESS" });
    expect(log).not.toHaveBeenCalled();
  });

  test("three recents at a time; Show More shows three more", () => {
    const terms = ["a", "b", "c", "d", "e", "f", "g"];
    const first = run([{ type: "open" }, recents(terms)]).model;
    expect(navigableOptions(first)).toEqual(["recent:0", "recent:1", "recent:2", "recent:more"]);
    const more = run([{ type: "highlight", key: "recent:more" }, { type: "moreRecents" }], first);
    expect(navigableOptions(more.model)).toEqual([
      "recent:0",
      "recent:1",
      "recent:2",
      "recent:3",
      "recent:4",
      "recent:5",
      "recent:more",
    ]);
    // The highlight moves to the first row Show More revealed.
    expect(more.model.highlight).toBe("recent:3");
    const all = run([{ type: "moreRecents" }], more.model).model;
    expect(navigableOptions(all)).toHaveLength(7);
    expect(all.groups.recent.state).toBe("SUCCESS");
    expect(more.log).not.toHaveBeenCalled();
  });
});

describe("typing and searching", () => {
  test("a non-empty query hides the Recent group at once", () => {
    const { model } = run([{ type: "open" }, recents(["abba"]), { type: "input", value: "a" }]);
    expect(states(model).recent).toBe("HIDDEN");
    expect(model.open).toBe(true);
  });

  test.each([
    {
      name: "songs and artists",
      songs: page("song", 3, nextSongs),
      artists: page("artist", 2),
      expected: { recent: "HIDDEN", songs: "SUCCESS", artists: "SUCCESS" },
      live: { kind: "results", songs: 3, artists: 2 },
    },
    {
      name: "artists only",
      songs: page("song", 0),
      artists: page("artist", 1),
      expected: { recent: "HIDDEN", songs: "EMPTY", artists: "SUCCESS" },
      live: { kind: "results", songs: 0, artists: 1 },
    },
    {
      name: "songs only",
      songs: page("song", 2),
      artists: page("artist", 0),
      expected: { recent: "HIDDEN", songs: "SUCCESS", artists: "EMPTY" },
      live: { kind: "results", songs: 2, artists: 0 },
    },
    {
      name: "nothing",
      songs: page("song", 0),
      artists: page("artist", 0),
      expected: { recent: "HIDDEN", songs: "NO_RESULTS", artists: "EMPTY" },
      live: { kind: "noresults", query: "zz" },
    },
  ])("results: $name", ({ songs, artists, expected, live }) => {
    const query = live.kind === "noresults" ? "zz" : "a";
    const { model, log } = run([
      { type: "open" },
      recents([]),
      { type: "input", value: ` ${query} ` },
      { type: "searchStarted", query },
      { type: "searchLoaded", query, songs, artists },
    ]);
    expect(states(model)).toEqual(expected);
    expect(model.live?.message).toEqual(live);
    expect(log).not.toHaveBeenCalled();
  });

  test("while loading, the Songs group says so and nothing is navigable", () => {
    const { model } = run([
      { type: "input", value: "a" },
      { type: "searchStarted", query: "a" },
    ]);
    expect(states(model)).toEqual({ recent: "HIDDEN", songs: "LOADING", artists: "LOADING" });
    expect(visibleGroups(model).map((view) => [view.name, view.message])).toEqual([["songs", "loading"]]);
    expect(navigableOptions(model)).toEqual([]);
  });

  test("an answer for an older query is dropped", () => {
    const { model } = run([
      { type: "input", value: "ab" },
      { type: "searchStarted", query: "a" },
      { type: "searchStarted", query: "ab" },
      { type: "searchLoaded", query: "a", songs: page("song", 3), artists: page("artist", 3) },
    ]);
    expect(states(model)).toEqual({ recent: "HIDDEN", songs: "LOADING", artists: "LOADING" });
  });

  test("a failed search hides the groups and leaves the box usable", () => {
    const { model, log } = run([
      { type: "input", value: "a" },
      { type: "searchStarted", query: "a" },
      { type: "searchFailed", query: "a" },
      { type: "input", value: "ab" },
      { type: "searchStarted", query: "ab" },
      { type: "searchLoaded", query: "ab", songs: page("song", 1), artists: page("artist", 0) },
    ]);
    expect(states(model)).toEqual({ recent: "HIDDEN", songs: "SUCCESS", artists: "EMPTY" });
    expect(log).not.toHaveBeenCalled();
  });

  test("clearing the box after no results: NO_RESULTS → LOADING → EMPTY, and the recents come back", () => {
    const { model, log } = run([
      { type: "input", value: "zz" },
      { type: "searchStarted", query: "zz" },
      { type: "searchLoaded", query: "zz", songs: page("song", 0), artists: page("artist", 0) },
      { type: "input", value: "" },
      recents(["zz"]),
    ]);
    expect(states(model)).toEqual({ recent: "SUCCESS", songs: "EMPTY", artists: "EMPTY" });
    expect(model.query).toBe("");
    expect(visibleGroups(model).map((view) => view.name)).toEqual(["recent"]);
    expect(log).not.toHaveBeenCalled();
  });

  test("recents read while the box holds a query are ignored", () => {
    const { model } = run([{ type: "input", value: "a" }, recents(["abba"])]);
    expect(states(model).recent).toBe("HIDDEN");
  });
});

describe("Show More for songs and artists", () => {
  const searched = run([
    { type: "input", value: "a" },
    { type: "searchStarted", query: "a" },
    {
      type: "searchLoaded",
      query: "a",
      songs: page("song", 3, nextSongs),
      artists: page("artist", 3, nextArtists),
    },
  ]).model;

  test("Show More is offered where a next link exists", () => {
    expect(navigableOptions(searched)).toEqual([
      "songs:0",
      "songs:1",
      "songs:2",
      "songs:more",
      "artists:0",
      "artists:1",
      "artists:2",
      "artists:more",
    ]);
  });

  test("the next page is appended: SUCCESS → LOADING → SUCCESS, highlight on the first new row", () => {
    const { model, log } = run(
      [
        { type: "highlight", key: "songs:more" },
        { type: "moreStarted", group: "songs" },
        { type: "moreLoaded", group: "songs", query: "a", ...page("song", 2, undefined, 3) },
      ],
      searched,
    );
    expect(model.groups.songs.state).toBe("SUCCESS");
    expect(model.groups.songs.items.map((item) => item.id)).toEqual([
      "song0",
      "song1",
      "song2",
      "song3",
      "song4",
    ]);
    expect(model.highlight).toBe("songs:3");
    expect(navigableOptions(model).filter((key) => key.startsWith("songs"))).toHaveLength(5);
    // The screen reader hears the count the dropdown now shows, not the first page's.
    expect(model.live?.message).toEqual({ kind: "results", songs: 5, artists: 3 });
    expect(model.live?.serial).toBeGreaterThan(searched.live?.serial ?? 0);
    expect(log).not.toHaveBeenCalled();
  });

  test("a next page that fails says nothing new", () => {
    const { model } = run(
      [
        { type: "moreStarted", group: "artists" },
        { type: "moreFailed", group: "artists", query: "a" },
      ],
      searched,
    );
    expect(model.live).toEqual(searched.live);
  });

  test("while the next page loads the rows stay and Show More stays", () => {
    const { model } = run([{ type: "moreStarted", group: "artists" }], searched);
    expect(model.groups.artists.state).toBe("LOADING");
    expect(navigableOptions(model)).toContain("artists:more");
    expect(navigableOptions(model)).toContain("artists:2");
  });

  test("a failed next page keeps the rows and the link to try again", () => {
    const { model, log } = run(
      [
        { type: "moreStarted", group: "artists" },
        { type: "moreFailed", group: "artists", query: "a" },
      ],
      searched,
    );
    expect(model.groups.artists.state).toBe("SUCCESS");
    expect(model.groups.artists.next).toBe(nextArtists);
    expect(model.groups.artists.items).toHaveLength(3);
    expect(log).not.toHaveBeenCalled();
  });

  test("Show More without a next link does nothing", () => {
    const { model } = run([{ type: "moreStarted", group: "songs" }], {
      ...searched,
      groups: { ...searched.groups, songs: { ...searched.groups.songs, next: undefined } },
    });
    expect(model.groups.songs.state).toBe("SUCCESS");
  });

  test("a next page for an older query is dropped", () => {
    const { model } = run(
      [
        { type: "moreStarted", group: "songs" },
        { type: "input", value: "b" },
        { type: "searchStarted", query: "b" },
        { type: "moreLoaded", group: "songs", query: "a", ...page("song", 3, undefined, 3) },
      ],
      searched,
    );
    expect(model.groups.songs.items).toEqual([]);
    expect(model.groups.songs.state).toBe("LOADING");
  });
});

describe("the keyboard", () => {
  const searched = run([
    { type: "open" },
    { type: "input", value: "a" },
    { type: "searchStarted", query: "a" },
    { type: "searchLoaded", query: "a", songs: page("song", 2, nextSongs), artists: page("artist", 1) },
  ]).model;

  test.each<[string, (1 | -1)[], string | undefined]>([
    ["down once: the first option", [1], "songs:0"],
    ["down through the groups", [1, 1, 1, 1], "artists:0"],
    ["down past the last wraps to the first", [1, 1, 1, 1, 1], "songs:0"],
    ["up first: the last option", [-1], "artists:0"],
    ["up and down", [1, 1, -1], "songs:0"],
  ])("%s", (_name, moves, expected) => {
    const { model } = run(
      moves.map((direction) => ({ type: "move", direction })),
      searched,
    );
    expect(model.highlight).toBe(expected);
    expect(model.open).toBe(true);
  });

  test("an arrow key opens a closed box", () => {
    const closed = run([{ type: "close" }], searched).model;
    expect(closed.open).toBe(false);
    expect(closed.highlight).toBeUndefined();
    const { model } = run([{ type: "move", direction: 1 }], closed);
    expect(model.open).toBe(true);
    expect(model.highlight).toBe("songs:0");
  });

  test("arrows with nothing to move through highlight nothing", () => {
    const { model } = run([{ type: "open" }, recents([]), { type: "move", direction: 1 }]);
    expect(model.highlight).toBeUndefined();
  });

  test("typing drops the highlight; a highlight that names no option is dropped", () => {
    const highlighted = run([{ type: "move", direction: 1 }], searched).model;
    expect(run([{ type: "input", value: "ab" }], highlighted).model.highlight).toBeUndefined();
    expect(run([{ type: "highlight", key: "artists:7" }], searched).model.highlight).toBeUndefined();
  });

  test("optionOf names the row or Show More", () => {
    expect(optionOf(searched, "songs:1").item?.id).toBe("song1");
    expect(optionOf(searched, "songs:more")).toEqual({ group: "songs", item: undefined, more: true });
    expect(optionOf(searched, "artists:5").item).toBeUndefined();
  });
});

test("the live message is cleared only by its own timer", () => {
  const said = run([{ type: "open" }, recents(["abba"])]).model;
  const serial = said.live?.serial ?? -1;
  expect(run([{ type: "liveCleared", serial: serial - 1 }], said).model.live).toBeDefined();
  expect(run([{ type: "liveCleared", serial }], said).model.live).toBeUndefined();
});

test("a whole session of focus, typing, Show More, clearing and refocus makes no invalid transition", () => {
  const { log } = run([
    { type: "open" },
    recents([]),
    { type: "input", value: "a" },
    { type: "searchStarted", query: "a" },
    { type: "searchLoaded", query: "a", songs: page("song", 3, nextSongs), artists: page("artist", 0) },
    { type: "moreStarted", group: "songs" },
    { type: "moreLoaded", group: "songs", query: "a", ...page("song", 3, undefined, 3) },
    { type: "input", value: "ab" },
    { type: "searchStarted", query: "ab" },
    { type: "searchFailed", query: "ab" },
    { type: "input", value: "" },
    recents(["a"]),
    { type: "close" },
    { type: "open" },
    recents(["a"]),
    { type: "input", value: "zz" },
    { type: "searchStarted", query: "zz" },
    { type: "searchLoaded", query: "zz", songs: page("song", 0), artists: page("artist", 0) },
    { type: "input", value: "" },
    recents(["zz", "a"]),
  ]);
  expect(log).not.toHaveBeenCalled();
});

test("the reducer moves groups only through the machine: a refused transition is logged, the state kept", () => {
  // The Recent group never reaches NO_RESULTS by itself; forced there, typing asks NO_RESULTS → HIDDEN.
  const start = initialSearchBoxModel();
  const forced: SearchBoxModel = {
    ...start,
    groups: { ...start.groups, recent: { state: "NO_RESULTS", items: [], shown: 0, next: undefined } },
  };
  const { model, log } = run([{ type: "input", value: "a" }], forced);
  expect(log).toHaveBeenCalledWith("search group recent: invalid transition NO_RESULTS → HIDDEN");
  expect(model.groups.recent.state).toBe("NO_RESULTS");
  expect(model.input).toBe("a");
});
