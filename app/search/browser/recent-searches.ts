import { normalizeSearchTerm, recentSearchesMax } from "#app/search/search-groups.ts";
import type { SiteStorage, StorageResult } from "#app/shell/browser/storage.ts";

/**
 * Recent searches (spec 000 §3 "Recent search entry: a list of strings kept locally under
 * search.recents"), kept as a storage record with the default expiry (app/shell/browser/storage.ts).
 * Newest first, each term once (compared without case), at most `recentSearchesMax`. A failed read
 * is handed back as a failure: spec 000 §8 "Failed recent-search read: the group is rejected".
 */
export type RecentSearches = {
  read(): StorageResult<string[]>;
  /** Puts `term` first; an empty term changes nothing. Answers the list as stored. */
  add(term: string): StorageResult<string[]>;
};

export const recentSearchesKey = "search.recents";

export function createRecentSearches(storage: SiteStorage): RecentSearches {
  function read(): StorageResult<string[]> {
    const stored = storage.get(recentSearchesKey);
    if (!stored.ok) return stored;
    return { ok: true, value: stored.value ?? [] };
  }
  return {
    read,
    add(term) {
      const normalized = normalizeSearchTerm(term);
      const current = read();
      if (!current.ok) return current;
      if (normalized === "") return current;
      const key = normalized.toLocaleLowerCase();
      const next = [normalized, ...current.value.filter((entry) => entry.toLocaleLowerCase() !== key)].slice(
        0,
        recentSearchesMax,
      );
      const saved = storage.set(recentSearchesKey, next);
      return saved.ok ? { ok: true, value: next } : saved;
    },
  };
}
