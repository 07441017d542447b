import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createImporter, createInfoBar, type InfoMessage } from "#app/shell/browser/info-bar.ts";
import { deferred } from "#tests/deferred.ts";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const clock = {
  now: () => Date.now(),
  setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function bar() {
  const shown: (string | undefined)[] = [];
  const infoBar = createInfoBar((message) => shown.push(message?.key), clock);
  return { infoBar, shown, last: () => shown[shown.length - 1] };
}

describe("info bar (spec 002 §4, §9)", () => {
  test("a message hides itself after 5 s; a keepOpen one stays until hidden", () => {
    const { infoBar, last } = bar();
    infoBar.show({ key: "a" });
    expect(last()).toBe("a");
    vi.advanceTimersByTime(4999);
    expect(last()).toBe("a");
    vi.advanceTimersByTime(1);
    expect(last()).toBeUndefined();
    const kept = infoBar.show({ key: "b", keepOpen: true });
    vi.advanceTimersByTime(60_000);
    expect(last()).toBe("b");
    kept.hide();
    expect(last()).toBeUndefined();
  });

  test("queued messages are shown at least 2 s apart", () => {
    const { infoBar, shown, last } = bar();
    infoBar.show({ key: "a" });
    infoBar.show({ key: "b" });
    infoBar.show({ key: "c" });
    expect(shown).toEqual(["a"]);
    vi.advanceTimersByTime(1999);
    expect(last()).toBe("a");
    vi.advanceTimersByTime(1);
    expect(last()).toBe("b");
    vi.advanceTimersByTime(2000);
    expect(last()).toBe("c");
    vi.advanceTimersByTime(5000);
    expect(shown).toEqual(["a", "b", "c", undefined]);
  });

  test("a message hidden while queued is never shown", () => {
    const { infoBar, shown } = bar();
    infoBar.show({ key: "a" });
    infoBar.show({ key: "b" }).hide();
    vi.advanceTimersByTime(10_000);
    expect(shown).toEqual(["a", undefined]);
  });
});

describe("on-demand importer (spec 002 §4, §8, §9)", () => {
  function importer(online = true) {
    const shown: (InfoMessage | undefined)[] = [];
    const infoBar = createInfoBar((message) => shown.push(message), clock);
    const importOnDemand = createImporter(infoBar, { ...clock, isOnline: () => online });
    return { importOnDemand, keys: () => shown.map((message) => message?.key) };
  }

  test("nothing under 500 ms; loading after 500 ms, slow after 5 s, hidden once loaded", async () => {
    const { importOnDemand, keys } = importer();
    const load = deferred<string>();
    const loaded = importOnDemand("recognition", () => load.promise);
    vi.advanceTimersByTime(499);
    expect(keys()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(keys()).toEqual(["importer.loading"]);
    vi.advanceTimersByTime(4500);
    expect(keys()).toEqual(["importer.loading", undefined, "importer.slow"]);
    load.resolve("module");
    await expect(loaded).resolves.toBe("module");
    expect(keys().at(-1)).toBeUndefined();
  });

  test("a script loads once", async () => {
    const { importOnDemand } = importer();
    const load = vi.fn(async () => "module");
    await importOnDemand("playaudio", load);
    await importOnDemand("playaudio", load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  test.each([
    [true, ["error.ops", "error.adblock"], "serviceerror"],
    [false, ["error.offline"], "network"],
  ])(
    "a failed load (online %s): 'Unable to load.', then %s 2 s later each; it may be tried again",
    async (online, why, type) => {
      const { importOnDemand, keys } = importer(online);
      const load = vi.fn(async () => {
        throw new TypeError("Failed to fetch dynamically imported module");
      });
      await expect(importOnDemand("recognition", load)).rejects.toMatchObject({ type });
      expect(keys()).toEqual(["importer.failed"]);
      vi.advanceTimersByTime(2000);
      expect(keys()).toEqual(["importer.failed", why[0]]);
      vi.advanceTimersByTime(5000);
      if (why[1]) {
        expect(keys().at(-1)).toBe(why[1]);
        vi.advanceTimersByTime(5000);
      }
      expect(keys().at(-1)).toBeUndefined();
      await expect(importOnDemand("recognition", load)).rejects.toBeDefined();
      expect(load).toHaveBeenCalledTimes(2);
    },
  );
});
