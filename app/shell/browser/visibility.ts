/**
 * First-show detection (spec 000 §4: "The first time a frame becomes visible a first-show
 * impression is sent"; §9: "visibility check delay 50 ms", "scroll handling debounce 50 ms").
 * A section counts as shown when it is still in view 50 ms after it entered, so sections flicked
 * past in a fast scroll are not counted. Each section is reported once per watcher (one watcher
 * per page view). IntersectionObserver does the watching; browsers without it (the spec supports
 * iOS 10, which lacks it before 12.2) fall back to checking positions on scroll.
 */

/** Spec 000 §9: "visibility check delay 50 ms". */
export const visibilityCheckDelayMs = 50;
/** Spec 000 §9: "scroll handling debounce 50 ms". */
export const scrollDebounceMs = 50;

export type VisibilityEntry<E> = { target: E; isIntersecting: boolean };

/** The part of IntersectionObserver the watcher uses. */
export type VisibilityObserver<E> = {
  observe(target: E): void;
  unobserve(target: E): void;
  disconnect(): void;
};

export type VisibilityObserverFactory<E> = (
  callback: (entries: ReadonlyArray<VisibilityEntry<E>>) => void,
) => VisibilityObserver<E>;

export type FirstShowWatcher<E> = {
  /** Starts watching `element` as `section`; returns a function that stops watching it. */
  watch(element: E, section: string): () => void;
  disconnect(): void;
};

export function createFirstShowWatcher<E>(
  onFirstShow: (section: string) => void,
  createObserver: VisibilityObserverFactory<E>,
): FirstShowWatcher<E> {
  const sections = new Map<E, string>();
  const pending = new Map<E, ReturnType<typeof setTimeout>>();
  const inView = new Set<E>();
  const shown = new Set<string>();

  const observer = createObserver((entries) => {
    for (const entry of entries) {
      const section = sections.get(entry.target);
      if (section === undefined || shown.has(section)) continue;
      if (!entry.isIntersecting) {
        inView.delete(entry.target);
        clearTimeout(pending.get(entry.target));
        pending.delete(entry.target);
        continue;
      }
      inView.add(entry.target);
      if (pending.has(entry.target)) continue;
      pending.set(
        entry.target,
        setTimeout(() => {
          pending.delete(entry.target);
          if (!inView.has(entry.target) || shown.has(section)) return;
          shown.add(section);
          stop(entry.target);
          onFirstShow(section);
        }, visibilityCheckDelayMs),
      );
    }
  });

  function stop(element: E) {
    clearTimeout(pending.get(element));
    pending.delete(element);
    inView.delete(element);
    sections.delete(element);
    observer.unobserve(element);
  }

  return {
    watch(element, section) {
      if (shown.has(section)) return () => {};
      sections.set(element, section);
      observer.observe(element);
      return () => {
        if (sections.has(element)) stop(element);
      };
    },
    disconnect() {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      inView.clear();
      sections.clear();
      observer.disconnect();
    },
  };
}

/** Default factory: IntersectionObserver where the browser has it, else the scroll fallback. */
export function browserVisibilityObserver(): VisibilityObserverFactory<Element> {
  if (typeof IntersectionObserver === "function") {
    return (callback) => new IntersectionObserver((entries) => callback(entries));
  }
  return scrollVisibilityObserver(window);
}

/** The part of `window` the scroll fallback uses. */
export type ScrollViewport = {
  innerWidth: number;
  innerHeight: number;
  addEventListener(type: "scroll" | "resize", listener: () => void, options?: { passive: boolean }): void;
  removeEventListener(type: "scroll" | "resize", listener: () => void): void;
};

type Positioned = { getBoundingClientRect(): { top: number; bottom: number; left: number; right: number } };

/**
 * An IntersectionObserver stand-in: on observe, and on scroll or resize (debounced 50 ms), reports
 * each observed element whose box overlaps the viewport, or left it.
 */
export function scrollVisibilityObserver<E extends Positioned>(
  viewport: ScrollViewport,
): VisibilityObserverFactory<E> {
  return (callback) => {
    const observed = new Map<E, boolean | undefined>();
    let debounce: ReturnType<typeof setTimeout> | undefined;

    function check(targets: Iterable<E>) {
      const entries: VisibilityEntry<E>[] = [];
      for (const target of targets) {
        const box = target.getBoundingClientRect();
        const visible =
          box.bottom > 0 && box.right > 0 && box.top < viewport.innerHeight && box.left < viewport.innerWidth;
        if (visible !== observed.get(target)) entries.push({ target, isIntersecting: visible });
        observed.set(target, visible);
      }
      if (entries.length > 0) callback(entries);
    }
    const onScroll = () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => check([...observed.keys()]), scrollDebounceMs);
    };
    function listen(on: boolean) {
      if (on) {
        viewport.addEventListener("scroll", onScroll, { passive: true });
        viewport.addEventListener("resize", onScroll, { passive: true });
      } else {
        viewport.removeEventListener("scroll", onScroll);
        viewport.removeEventListener("resize", onScroll);
        clearTimeout(debounce);
      }
    }

    return {
      observe(target) {
        if (observed.size === 0) listen(true);
        observed.set(target, undefined);
        check([target]);
      },
      unobserve(target) {
        observed.delete(target);
        if (observed.size === 0) listen(false);
      },
      disconnect() {
        observed.clear();
        listen(false);
      },
    };
  };
}
