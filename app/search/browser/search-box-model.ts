import {
  artistsGroupResult,
  normalizeSearchTerm,
  recentGroupResult,
  type SearchGroupLog,
  type SearchGroupName,
  type SearchGroupState,
  searchGroupNames,
  searchPageSize,
  songsGroupResult,
  transitionSearchGroup,
} from "#app/search/search-groups.ts";
import type { StorageResult } from "#app/shell/browser/storage.ts";

/**
 * What the search box shows, as one value changed only by `reduceSearchBox` (spec 000 §2 "Search
 * box", §4 "Search group states" and "Result rules"). Every state change of a group goes through
 * `transitionSearchGroup`, so a transition the spec does not allow is logged and refused. The
 * component (app/search/search-box.tsx) runs the effects: debounce, requests, storage, timers.
 */

/** One row of a group: a recent term, a song or an artist. */
export type SearchBoxItem = {
  id: string;
  title: string;
  subtitle?: string;
  /** Where a song or an artist leads; a recent term has none (it is searched again). */
  href?: string;
  image?: { src: string; srcSet: string };
};

export type SearchBoxGroup = {
  state: SearchGroupState;
  items: SearchBoxItem[];
  /** Rows shown: recents are paged locally; songs and artists show every row loaded. */
  shown: number;
  /** The catalogue's next link (songs, artists), absent at the end. */
  next: string | undefined;
};

/** An option of the listbox: a row of a group, or its Show More. */
export type SearchBoxOptionKey = `${SearchGroupName}:${number}` | `${SearchGroupName}:more`;

/** What the live region says, before it is put into words. */
export type SearchBoxLive =
  | { kind: "results"; songs: number; artists: number }
  | { kind: "noresults"; query: string }
  | { kind: "recents"; count: number };

export type SearchBoxModel = {
  open: boolean;
  /** What the input holds. */
  input: string;
  /** The normalized term the songs and artists groups hold or are loading. */
  query: string;
  groups: Record<SearchGroupName, SearchBoxGroup>;
  highlight: SearchBoxOptionKey | undefined;
  /** `serial` tells a new message from the same words said again, and which one a timer clears. */
  live: { message: SearchBoxLive; serial: number } | undefined;
};

export type SearchBoxPage = { items: SearchBoxItem[]; next: string | undefined };

export type SearchBoxAction =
  | { type: "open" }
  | { type: "close" }
  | { type: "input"; value: string }
  | { type: "recentsRead"; result: StorageResult<string[]> }
  | { type: "moreRecents" }
  | { type: "searchStarted"; query: string }
  | { type: "searchLoaded"; query: string; songs: SearchBoxPage; artists: SearchBoxPage }
  | { type: "searchFailed"; query: string }
  | { type: "moreStarted"; group: "songs" | "artists" }
  | ({ type: "moreLoaded"; group: "songs" | "artists"; query: string } & SearchBoxPage)
  | { type: "moreFailed"; group: "songs" | "artists"; query: string }
  | { type: "move"; direction: 1 | -1 }
  | { type: "highlight"; key: SearchBoxOptionKey | undefined }
  | { type: "liveCleared"; serial: number };

function emptyGroup(): SearchBoxGroup {
  return { state: "INIT", items: [], shown: 0, next: undefined };
}

export function initialSearchBoxModel(input = ""): SearchBoxModel {
  return {
    open: false,
    input,
    query: "",
    groups: { recent: emptyGroup(), songs: emptyGroup(), artists: emptyGroup() },
    highlight: undefined,
    live: undefined,
  };
}

/** A group as the dropdown draws it; groups that draw nothing are left out. */
export type SearchBoxGroupView = {
  name: SearchGroupName;
  state: SearchGroupState;
  items: SearchBoxItem[];
  /** Show More is offered (while it loads, too). */
  hasMore: boolean;
  message: "norecents" | "noresults" | "loading" | undefined;
};

export function visibleGroups(model: SearchBoxModel): SearchBoxGroupView[] {
  const views: SearchBoxGroupView[] = [];
  for (const name of searchGroupNames) {
    const group = model.groups[name];
    const items = group.items.slice(0, group.shown);
    const base = { name, state: group.state, items, hasMore: false, message: undefined };
    if (name === "recent") {
      if (group.state === "SUCCESS" || (group.state === "LOADING" && items.length > 0)) {
        views.push({ ...base, hasMore: group.shown < group.items.length });
      } else if (group.state === "EMPTY") {
        views.push({ ...base, message: "norecents" });
      }
      continue;
    }
    if (group.state === "SUCCESS" || (group.state === "LOADING" && items.length > 0)) {
      views.push({ ...base, hasMore: group.next !== undefined });
    } else if (group.state === "LOADING" && name === "songs") {
      views.push({ ...base, message: "loading" });
    } else if (group.state === "NO_RESULTS") {
      views.push({ ...base, message: "noresults" });
    }
  }
  return views;
}

/** The options the arrow keys move through, in the order they are drawn. */
export function navigableOptions(model: SearchBoxModel): SearchBoxOptionKey[] {
  return visibleGroups(model).flatMap((view) => [
    ...view.items.map((_item, index): SearchBoxOptionKey => `${view.name}:${index}`),
    ...(view.hasMore ? [`${view.name}:more` as const] : []),
  ]);
}

/** The row an option key names, or "more", or undefined for a key that names nothing. */
export function optionOf(
  model: SearchBoxModel,
  key: SearchBoxOptionKey,
): { group: SearchGroupName; item: SearchBoxItem | undefined; more: boolean } {
  const [group, index] = key.split(":") as [SearchGroupName, string];
  if (index === "more") return { group, item: undefined, more: true };
  return { group, item: model.groups[group].items[Number(index)], more: false };
}

export function createSearchBoxReducer(log?: SearchGroupLog) {
  function move(group: SearchGroupName, from: SearchGroupState, to: SearchGroupState): SearchGroupState {
    return transitionSearchGroup(group, from, to, log);
  }

  /** To LOADING (unless already there), then to `to`: how a group takes a new result. */
  function reload(group: SearchGroupName, from: SearchGroupState, to: SearchGroupState): SearchGroupState {
    const loading = from === "LOADING" ? from : move(group, from, "LOADING");
    return loading === "LOADING" ? move(group, loading, to) : loading;
  }

  function withGroup(model: SearchBoxModel, name: SearchGroupName, group: Partial<SearchBoxGroup>) {
    return { ...model, groups: { ...model.groups, [name]: { ...model.groups[name], ...group } } };
  }

  function say(model: SearchBoxModel, message: SearchBoxLive): SearchBoxModel {
    return { ...model, live: { message, serial: (model.live?.serial ?? 0) + 1 } };
  }

  function step(model: SearchBoxModel, action: SearchBoxAction): SearchBoxModel {
    switch (action.type) {
      case "open":
        return { ...model, open: true };
      case "close":
        return { ...model, open: false, highlight: undefined };
      case "input": {
        const query = normalizeSearchTerm(action.value);
        let next: SearchBoxModel = { ...model, input: action.value, open: true, highlight: undefined };
        const recent = next.groups.recent;
        if (query !== "" && recent.state !== "HIDDEN") {
          next = withGroup(next, "recent", { state: move("recent", recent.state, "HIDDEN") });
        }
        if (query === "" && model.query !== "") {
          next = { ...next, query: "" };
          for (const name of ["songs", "artists"] as const) {
            const state = reload(
              name,
              next.groups[name].state,
              name === "songs" ? songsGroupResult("", 0, 0) : artistsGroupResult(0),
            );
            next = withGroup(next, name, { state, items: [], shown: 0, next: undefined });
          }
        }
        return next;
      }
      case "recentsRead": {
        if (normalizeSearchTerm(model.input) !== "") return model;
        const group = model.groups.recent;
        if (!action.result.ok) {
          return withGroup(model, "recent", { state: reload("recent", group.state, "HIDDEN"), items: [] });
        }
        const terms = action.result.value;
        const items = terms.map((term) => ({ id: term, title: term }));
        const state = reload("recent", group.state, recentGroupResult("", terms.length));
        const next = withGroup(model, "recent", {
          state,
          items,
          shown: Math.min(searchPageSize, items.length),
        });
        return say(next, { kind: "recents", count: terms.length });
      }
      case "moreRecents": {
        const group = model.groups.recent;
        if (group.state !== "SUCCESS" || group.shown >= group.items.length) return model;
        const state = reload("recent", group.state, "SUCCESS");
        const next = withGroup(model, "recent", {
          state,
          shown: Math.min(group.shown + searchPageSize, group.items.length),
        });
        return model.highlight === "recent:more" ? { ...next, highlight: `recent:${group.shown}` } : next;
      }
      case "searchStarted": {
        let next: SearchBoxModel = { ...model, query: action.query };
        for (const name of ["songs", "artists"] as const) {
          const group = next.groups[name];
          const state = group.state === "LOADING" ? group.state : move(name, group.state, "LOADING");
          next = withGroup(next, name, { state, items: [], shown: 0, next: undefined });
        }
        return next;
      }
      case "searchLoaded": {
        if (action.query !== model.query) return model;
        const { songs, artists } = action;
        let next = withGroup(model, "songs", {
          state: reload(
            "songs",
            model.groups.songs.state,
            songsGroupResult(action.query, songs.items.length, artists.items.length),
          ),
          items: songs.items,
          shown: songs.items.length,
          next: songs.next,
        });
        next = withGroup(next, "artists", {
          state: reload("artists", model.groups.artists.state, artistsGroupResult(artists.items.length)),
          items: artists.items,
          shown: artists.items.length,
          next: artists.next,
        });
        return songs.items.length === 0 && artists.items.length === 0
          ? say(next, { kind: "noresults", query: action.query })
          : say(next, { kind: "results", songs: songs.items.length, artists: artists.items.length });
      }
      case "searchFailed": {
        if (action.query !== model.query) return model;
        let next = model;
        for (const name of ["songs", "artists"] as const) {
          next = withGroup(next, name, { state: reload(name, next.groups[name].state, "HIDDEN") });
        }
        return next;
      }
      case "moreStarted": {
        const group = model.groups[action.group];
        if (group.state !== "SUCCESS" || group.next === undefined) return model;
        return withGroup(model, action.group, { state: move(action.group, group.state, "LOADING") });
      }
      case "moreLoaded":
      case "moreFailed": {
        const group = model.groups[action.group];
        if (action.query !== model.query || group.state !== "LOADING") return model;
        const items = action.type === "moreLoaded" ? [...group.items, ...action.items] : group.items;
        const nextLink = action.type === "moreLoaded" ? action.next : group.next;
        const songs = action.group === "songs" ? items.length : model.groups.songs.items.length;
        const artists = action.group === "artists" ? items.length : model.groups.artists.items.length;
        const result =
          action.group === "songs"
            ? songsGroupResult(model.query, songs, artists)
            : artistsGroupResult(artists);
        const next = withGroup(model, action.group, {
          state: move(action.group, group.state, result),
          items,
          shown: items.length,
          next: nextLink,
        });
        const firstNew = `${action.group}:${group.items.length}` as const;
        const highlighted =
          model.highlight === `${action.group}:more` && items.length > group.items.length
            ? { ...next, highlight: firstNew }
            : next;
        // The live region says the counts the dropdown now shows (spec 000 §4, §9), once rows came.
        return items.length > group.items.length
          ? say(highlighted, { kind: "results", songs, artists })
          : highlighted;
      }
      case "move": {
        const options = navigableOptions(model);
        if (options.length === 0) return { ...model, open: true, highlight: undefined };
        const at = model.highlight === undefined ? -1 : options.indexOf(model.highlight);
        const index =
          at === -1
            ? action.direction === 1
              ? 0
              : options.length - 1
            : (at + action.direction + options.length) % options.length;
        return { ...model, open: true, highlight: options[index] };
      }
      case "highlight":
        return { ...model, highlight: action.key };
      case "liveCleared":
        return model.live?.serial === action.serial ? { ...model, live: undefined } : model;
    }
  }

  /** One step, then a highlight that names no drawn option is dropped. */
  return function reduceSearchBox(model: SearchBoxModel, action: SearchBoxAction): SearchBoxModel {
    const next = step(model, action);
    if (next.highlight !== undefined && !navigableOptions(next).includes(next.highlight)) {
      return { ...next, highlight: undefined };
    }
    return next;
  };
}
