/** The listeners of one kind of change: added and removed by their owners, called in the order added. */
export type Listeners<T> = {
  /** Adds `listener`; the returned function removes it. */
  add(listener: (value: T) => void): () => void;
  emit(value: T): void;
  clear(): void;
};

export function createListeners<T>(): Listeners<T> {
  const listeners = new Set<(value: T) => void>();
  return {
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(value) {
      for (const listener of listeners) listener(value);
    },
    clear: () => listeners.clear(),
  };
}
