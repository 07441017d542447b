import { SiteError } from "#rules/errors.ts";

/**
 * The info bar (spec 002 §2, §4 "Info bar: hidden to shown, auto-hide after 5 s unless keepOpen;
 * queued messages are shown at least 2 s apart"; §9) and the on-demand script importer that
 * reports through it (§4 "shows a loading message after 500 ms and 'This is taking longer than
 * expected' after 5 s. If a script fails to load, an offline message is shown when the browser is
 * offline, else a generic error. A script loads only once."; §8 "Script load failure: 'Unable to
 * load.' then info bar website_error_ops or website_offline").
 */

/** Spec 002 §9 "Info bar: auto-hide 5 s, spacing 2 s. Importer delays 500 ms and 5 s." */
export const infoBarTiming = { autoHideMs: 5000, spacingMs: 2000 } as const;
export const importerTiming = { loadingMs: 500, slowMs: 5000 } as const;

/** A message: a key of the common strings (with its values); keepOpen ones stay until hidden. */
export type InfoMessage = { key: string; values?: Record<string, string>; keepOpen?: boolean };

type Clock = {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export type InfoBar = {
  /** Queues a message; the handle hides it (queued or shown). */
  show(message: InfoMessage): { hide(): void };
};

export function createInfoBar(onChange: (message: InfoMessage | undefined) => void, clock: Clock): InfoBar {
  const queue: InfoMessage[] = [];
  let current: InfoMessage | undefined;
  let shownAt = Number.NEGATIVE_INFINITY;
  let timer: unknown;

  function set(message: InfoMessage | undefined) {
    current = message;
    onChange(message);
  }

  /** Shows the next queued message when its turn has come, else waits for it. */
  function pump() {
    clock.clearTimeout(timer);
    timer = undefined;
    const next = queue[0];
    if (!next) {
      if (current && !current.keepOpen) timer = clock.setTimeout(() => hide(current), autoHideLeft());
      return;
    }
    const wait = shownAt + infoBarTiming.spacingMs - clock.now();
    if (wait > 0) {
      timer = clock.setTimeout(pump, wait);
      return;
    }
    queue.shift();
    shownAt = clock.now();
    set(next);
    pump();
  }

  function autoHideLeft() {
    return Math.max(0, shownAt + infoBarTiming.autoHideMs - clock.now());
  }

  function hide(message: InfoMessage | undefined) {
    if (!message) return;
    const queued = queue.indexOf(message);
    if (queued >= 0) queue.splice(queued, 1);
    if (current === message) set(undefined);
    pump();
  }

  return {
    show(message) {
      const entry = { ...message };
      queue.push(entry);
      pump();
      return { hide: () => hide(entry) };
    },
  };
}

/** Loads named code on demand, once, telling the visitor through the info bar while it is slow or failed. */
export function createImporter(infoBar: InfoBar, deps: Clock & { isOnline(): boolean }) {
  const loaded = new Map<string, Promise<unknown>>();
  return function importOnDemand<T>(name: string, load: () => Promise<T>): Promise<T> {
    const known = loaded.get(name);
    if (known) return known as Promise<T>;
    let notice: { hide(): void } | undefined;
    const say = (key: string) => {
      notice?.hide();
      notice = infoBar.show({ key, keepOpen: true });
    };
    const timers = [
      deps.setTimeout(() => say("importer.loading"), importerTiming.loadingMs),
      deps.setTimeout(() => say("importer.slow"), importerTiming.slowMs),
    ];
    const done = () => {
      for (const handle of timers) deps.clearTimeout(handle);
      notice?.hide();
    };
    const promise = load().then(
      (module) => {
        done();
        return module;
      },
      (error: unknown) => {
        done();
        // A failed load may be tried again (the next press); only a loaded script is kept.
        loaded.delete(name);
        const online = deps.isOnline();
        infoBar.show({ key: "importer.failed" });
        infoBar.show({ key: online ? "error.ops" : "error.offline" });
        // Online, the likeliest reason a script of our own does not load is a blocker (spec 000 §8
        // error page texts: "If you have ad block on, it may be causing a problem").
        if (online) infoBar.show({ key: "error.adblock" });
        throw new SiteError(online ? "serviceerror" : "network", `${name} did not load: ${String(error)}`);
      },
    );
    loaded.set(name, promise);
    return promise;
  };
}
