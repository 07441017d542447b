import { createInterface } from "node:readline";
import { Miniflare } from "miniflare";
import { describe, expect, test, vi } from "vitest";
import { gcLive, gcPeak, parseGcLine, snapshotIsolate } from "#bench/gc-trace.ts";
import { productionHeapLimit, startWithV8Flags, withV8Flags } from "#scripts/v8-flags.ts";

// What workerd's V8 prints with --trace-gc (captured from workerd 2025-09-06).
const scavenge =
  "[17557:0x729abfcd0000]      332 ms: Scavenge 1.8 (2.5) -> 1.8 (2.8) MB, pooled: 0.0 MB, 0.43 / 0.00 ms (average mu = 1.000, current mu = 1.000) allocation failure; ";
const duringSweeping =
  "[17557:0x729abfcd0000]     1204 ms: Scavenge (during sweeping) 40.2 (44.0) -> 31.0 (45.5) MB, pooled: 0.0 MB, 3.10 / 0.00 ms (average mu = 0.990, current mu = 0.990) allocation failure; ";
const markCompact =
  "[17557:0x729abfcd0000]     2767 ms: Mark-Compact 126.3 (127.9) -> 84.2 (85.6) MB, pooled: 0.0 MB, 21.13 / 0.00 ms (average mu = 0.992, current mu = 0.992) allocation failure; scavenge might not succeed";
const otherIsolate =
  "[17557:0x11aa22cd0000]      900 ms: Mark-Compact (reduce) 3.0 (4.0) -> 2.5 (3.5) MB, pooled: 0.0 MB, 2.00 / 0.00 ms (average mu = 1.000, current mu = 1.000) heap profiler; GC in old space requested";

describe("V8's --trace-gc lines (the memory section's peaks)", () => {
  test.each([
    [
      scavenge,
      "0x729abfcd0000",
      "allocation failure",
      false,
      { usedMb: 1.8, totalMb: 2.5 },
      { usedMb: 1.8, totalMb: 2.8 },
    ],
    [
      duringSweeping,
      "0x729abfcd0000",
      "allocation failure",
      false,
      { usedMb: 40.2, totalMb: 44 },
      { usedMb: 31, totalMb: 45.5 },
    ],
    [
      markCompact,
      "0x729abfcd0000",
      "allocation failure",
      true,
      { usedMb: 126.3, totalMb: 127.9 },
      { usedMb: 84.2, totalMb: 85.6 },
    ],
    [
      otherIsolate,
      "0x11aa22cd0000",
      "heap profiler",
      true,
      { usedMb: 3, totalMb: 4 },
      { usedMb: 2.5, totalMb: 3.5 },
    ],
  ])("%s", (line, isolate, reason, full, before, after) => {
    expect(parseGcLine(line)).toEqual({ isolate, reason, full, before, after });
  });

  test.each([
    "workerd/server/server.c++:1234: info: Inspector is listening",
    "[17557:0x729abfcd0000] Fast promotion mode: false survival rate: 12%",
    "<--- Last few GCs --->",
    "",
  ])("not a collection: %j", (line) => {
    expect(parseGcLine(line)).toBeUndefined();
  });

  test("the peak is the highest used and committed size, before or after, of the one isolate", () => {
    const events = [scavenge, duringSweeping, otherIsolate].map(parseGcLine).filter((e) => e !== undefined);
    expect(gcPeak(events, "0x729abfcd0000")).toEqual({ usedMb: 40.2, totalMb: 45.5, collections: 2 });
    expect(gcPeak(events, "0x11aa22cd0000")).toEqual({ usedMb: 3, totalMb: 4, collections: 1 });
    expect(gcPeak([], "0x729abfcd0000")).toEqual({ usedMb: 0, totalMb: 0, collections: 0 });
  });

  test("what an isolate held live is the most used after a full collection, of that isolate", () => {
    const events = [scavenge, duringSweeping, markCompact, otherIsolate]
      .map(parseGcLine)
      .filter((e) => e !== undefined);
    expect(gcLive(events, "0x729abfcd0000")).toBe(84.2);
    expect(gcLive(events, "0x11aa22cd0000")).toBe(2.5);
    expect(gcLive(events.slice(0, 2), "0x729abfcd0000")).toBe(0);
  });

  test("the site's isolate is the one a heap snapshot collected", () => {
    const events = [scavenge, otherIsolate, markCompact].map(parseGcLine).filter((e) => e !== undefined);
    expect(snapshotIsolate(events)).toBe("0x11aa22cd0000");
    expect(snapshotIsolate(events.slice(0, 1))).toBeUndefined();
  });
});

/** A Cap'n Proto message as Miniflare frames it: one segment, a root struct of 1 data word, 5 pointers. */
function configMessage(): Uint8Array {
  const bytes = new Uint8Array(8 + 8 * 7);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0, true); // one segment
  view.setUint32(4, 7, true); // of 7 words
  view.setUint32(8, 0, true); // root: struct pointer, offset 0
  view.setUint16(12, 1, true);
  view.setUint16(14, 5, true);
  view.setUint32(16, 0xabcdef, true); // the data word
  return bytes;
}

// Each test starts workerd (and two fill 180 MB): a few seconds on a quiet machine, several times
// that on a busy one, so the timeout is sized to that work, not to vitest's 5 s default.
describe("V8 flags in workerd's binary config", { timeout: 60_000 }, () => {
  test("no flags: the message as it was", () => {
    const message = configMessage();
    expect(withV8Flags(message, [])).toBe(message);
  });

  test("the flags go in a segment of their own, reached by a far pointer from slot 2", () => {
    const out = withV8Flags(configMessage(), ["--expose-gc"]);
    const view = new DataView(out.buffer);
    expect(view.getUint32(0, true)).toBe(1); // two segments now
    expect(view.getUint32(4, true)).toBe(7);
    const header = 16;
    expect(view.getUint32(header + 8, true)).toBe(0xabcdef); // nothing moved
    const slot = header + 8 * (1 + 1 + 2);
    expect(view.getUint32(slot, true)).toBe(2); // far pointer, landing pad at word 0
    expect(view.getUint32(slot + 4, true)).toBe(1); // in segment 1
    const segment = header + 7 * 8;
    expect(view.getUint32(segment + 4, true)).toBe((1 << 3) | 6); // a list of one pointer
    const text = view.getUint32(segment + 8 + 4, true);
    expect(text & 7).toBe(2); // of bytes
    const offset = view.getUint32(segment + 8, true) >> 2;
    const start = segment + 16 + offset * 8;
    expect(new TextDecoder().decode(out.subarray(start, start + (text >>> 3)))).toBe("--expose-gc\0");
  });

  test("a config whose slot is taken already is refused, not overwritten", () => {
    const message = configMessage();
    new DataView(message.buffer).setUint32(8 + 8 * 4, 1, true);
    expect(() => withV8Flags(message, ["--expose-gc"])).toThrow(/set already/);
  });

  // Through Miniflare to workerd: --expose-gc is visible to the worker as `gc`.
  test.each([
    [[], "undefined"],
    [["--expose-gc"], "function"],
    [["--expose-gc", "--max-heap-size=128"], "function"],
  ])("workerd started with %j: typeof gc is %s", async (flags, expected) => {
    const miniflare = await startWithV8Flags(flags, async () => {
      const started = new Miniflare({
        modules: true,
        script: "export default { fetch: () => new Response(typeof gc) };",
        compatibilityDate: "2025-01-01",
      });
      await started.ready;
      return started;
    });
    try {
      expect(await (await miniflare.dispatchFetch("http://bench.local/")).text()).toBe(expected);
    } finally {
      await miniflare.dispose();
    }
  });

  // Without line buffering, these few lines would sit in workerd's pipe buffer until it exits.
  test("--trace-gc: each collection's line arrives while workerd runs", async () => {
    const lines: string[] = [];
    const miniflare = await startWithV8Flags(["--trace-gc"], async () => {
      const started = new Miniflare({
        modules: true,
        script:
          "export default { fetch: () => new Response(String(Array.from({ length: 1e6 }, (_, n) => ({ n })).length)) };",
        compatibilityDate: "2025-01-01",
        handleRuntimeStdio: (stdout) =>
          createInterface({ input: stdout }).on("line", (line) => lines.push(line)),
      });
      await started.ready;
      return started;
    });
    try {
      expect(await (await miniflare.dispatchFetch("http://bench.local/")).text()).toBe("1000000");
      await vi.waitFor(() =>
        expect(lines.map(parseGcLine).filter((e) => e !== undefined).length).toBeGreaterThan(0),
      );
    } finally {
      await miniflare.dispose();
    }
  });

  // Production's limit is a limit: 180 MB held is fine without it, and aborts workerd with it.
  test.each([
    [[], true],
    [productionHeapLimit, false],
  ])("workerd started with %j holds 180 MB: %s", async (flags, holds) => {
    const miniflare = await startWithV8Flags(flags, async () => {
      const started = new Miniflare({
        modules: true,
        script:
          "const held = []; export default { fetch() { for (let n = 0; n < 180; n++) held.push(new Array(131072).fill(n + 0.5)); return new Response(String(held.length)); } };",
        compatibilityDate: "2025-01-01",
        // V8's fatal "Reached heap limit" report, expected here.
        handleRuntimeStdio: (stdout, stderr) => {
          stdout.resume();
          stderr.resume();
        },
      });
      await started.ready;
      return started;
    });
    try {
      const answer = miniflare.dispatchFetch("http://bench.local/").then((response) => response.text());
      if (holds) expect(await answer).toBe("180");
      else await expect(answer).rejects.toThrow();
    } finally {
      await miniflare.dispose();
    }
  });
});
