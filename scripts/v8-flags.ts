import { createRequire } from "node:module";
import path from "node:path";
import { Runtime } from "miniflare";

/**
 * V8 flags for the workerd that Miniflare starts. workerd's config has a top-level `v8Flags` list
 * (workerd.capnp `Config`, pointer 2), but Miniflare (4.20250906) never sets it and has no option
 * for it, so the bench adds the field to the binary config Miniflare hands its `Runtime`
 * (decision 028, finding 8).
 */

/**
 * Cloudflare's isolates have 128 MB; local workerd sets no V8 heap limit, and V8 without one lets
 * garbage pile up long before it collects. The bench's workerd gets production's limit (V8's
 * `--max-heap-size`, young and old generations together), so its heap reads as it would there; an
 * isolate that needs more than the limit aborts workerd, and its requests fail on their connections.
 */
export const productionHeapLimitMb = 128;
export const productionHeapLimit: readonly string[] = [`--max-heap-size=${productionHeapLimitMb}`];

/** The pointer slot of `v8Flags` in workerd's `Config` struct. */
const v8FlagsPointer = 2;

const word = 8;

/** A Cap'n Proto list pointer (spec: encoding, "Lists"): offset in words from the pointer's end. */
function listPointer(view: DataView, at: number, offsetWords: number, elementSize: number, count: number) {
  view.setUint32(at, ((offsetWords << 2) | 1) >>> 0, true);
  view.setUint32(at + 4, ((count << 3) | elementSize) >>> 0, true);
}

/**
 * `message` (a framed Cap'n Proto message whose root is workerd's `Config`, as Miniflare writes
 * it) with `v8Flags` set to `flags`: the list goes in a segment of its own, reached from the root
 * struct's empty slot by a far pointer, so nothing already in the message moves.
 */
export function withV8Flags(message: Uint8Array, flags: readonly string[]): Uint8Array {
  if (flags.length === 0) return message;
  const input = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const segmentCount = input.getUint32(0, true) + 1;
  const sizes = Array.from({ length: segmentCount }, (_, n) => input.getUint32(4 + 4 * n, true));
  const headerBytes = align(4 * (1 + segmentCount)) * word;
  const rootLow = input.getUint32(headerBytes, true);
  if ((rootLow & 3) !== 0) throw new Error("workerd config: the root pointer is not a struct pointer");
  const rootOffset = (rootLow | 0) >> 2;
  const pointerCount = input.getUint16(headerBytes + 6, true);
  const dataWords = input.getUint16(headerBytes + 4, true);
  if (pointerCount <= v8FlagsPointer) throw new Error("workerd config: Config has no v8Flags slot");
  const slot = headerBytes + (1 + rootOffset + dataWords + v8FlagsPointer) * word;
  if (input.getUint32(slot, true) !== 0 || input.getUint32(slot + 4, true) !== 0)
    throw new Error("workerd config: v8Flags is set already");

  // The new segment: a landing pad (the list of texts), one pointer per flag, then each text
  // (UTF-8, NUL-terminated, padded to a word).
  const texts = flags.map((flag) => new TextEncoder().encode(`${flag}\0`));
  const textWords = texts.map((text) => align(text.byteLength));
  const segmentWords = 1 + flags.length + textWords.reduce((sum, words) => sum + words, 0);
  const segment = new Uint8Array(segmentWords * word);
  const view = new DataView(segment.buffer);
  listPointer(view, 0, 0, 6, flags.length);
  let at = 1 + flags.length;
  for (const [n, text] of texts.entries()) {
    const pointerWord = 1 + n;
    listPointer(view, pointerWord * word, at - (pointerWord + 1), 2, text.byteLength);
    segment.set(text, at * word);
    at += textWords[n] ?? 0;
  }

  const outHeaderBytes = align(4 * (2 + segmentCount)) * word;
  const bodyBytes = message.byteLength - headerBytes;
  const out = new Uint8Array(outHeaderBytes + bodyBytes + segment.byteLength);
  const header = new DataView(out.buffer);
  header.setUint32(0, segmentCount, true);
  for (const [n, size] of sizes.entries()) header.setUint32(4 + 4 * n, size, true);
  header.setUint32(4 + 4 * segmentCount, segmentWords, true);
  out.set(message.subarray(headerBytes), outHeaderBytes);
  out.set(segment, outHeaderBytes + bodyBytes);
  // A far pointer (single landing pad at word 0 of the new segment, whose id is segmentCount).
  const outSlot = slot - headerBytes + outHeaderBytes;
  header.setUint32(outSlot, 2, true);
  header.setUint32(outSlot + 4, segmentCount, true);
  return out;
}

/** Bytes rounded up to whole words, in words. */
function align(bytes: number): number {
  return Math.ceil(bytes / word);
}

let pending: readonly string[] | undefined;
let patched = false;

/** The workerd binary Miniflare runs (its own dependency), and the wrapper that line-buffers it. */
const workerdPath = (): string => {
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve("miniflare"));
  return process.env.MINIFLARE_WORKERD_PATH ?? (fromMiniflare("workerd") as { default: string }).default;
};
const lineBuffered = path.join(import.meta.dirname, "workerd-line-buffered.sh");

/**
 * Starts a Miniflare whose workerd runs with `flags`, its stdout line-buffered (what V8 prints
 * goes there): `start` must construct it and wait for it to be ready (workerd is spawned with its
 * config then). One start at a time (the bench starts its sites one after another): the flags
 * and the wrapper are handed to Miniflare's `Runtime` through this module and the environment
 * while it starts.
 */
export async function startWithV8Flags<T>(flags: readonly string[], start: () => Promise<T>): Promise<T> {
  if (flags.length === 0) return start();
  if (pending) throw new Error("startWithV8Flags: another workerd is starting with V8 flags");
  if (!patched) {
    const updateConfig = Runtime.prototype.updateConfig;
    Runtime.prototype.updateConfig = function (this: Runtime, config, ...rest) {
      return updateConfig.call(this, pending ? Buffer.from(withV8Flags(config, pending)) : config, ...rest);
    };
    patched = true;
  }
  const environment = {
    MINIFLARE_WORKERD_PATH: process.env.MINIFLARE_WORKERD_PATH,
    TUNEWAVE_WORKERD: process.env.TUNEWAVE_WORKERD,
  };
  process.env.TUNEWAVE_WORKERD = workerdPath();
  process.env.MINIFLARE_WORKERD_PATH = lineBuffered;
  pending = flags;
  try {
    return await start();
  } finally {
    pending = undefined;
    for (const [name, value] of Object.entries(environment)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
