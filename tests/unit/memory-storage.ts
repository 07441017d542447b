import { storageVersionKey } from "#app/shell/browser/storage.ts";

/** A `Storage` in memory, already at storage format version 2 (no first-use clearing). */
export function memoryStorage(): Storage {
  const items = new Map<string, string>([[storageVersionKey, "2"]]);
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}
