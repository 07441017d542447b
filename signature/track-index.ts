import {
  FFT_SIZE,
  HASH_BITS,
  HOP_SIZE,
  INDEX_FANOUT,
  INDEX_MAGIC,
  INDEX_PARAMETERS_CHECKSUM,
  INDEX_VERSION,
  MATCH_COMMON_BUCKET_FACTOR,
  MATCH_MIN_COMMON_BUCKET,
  PEAK_BIN_FRACTION,
  SIGNATURE_SAMPLE_RATE,
} from "./constants";
import { SignatureError } from "./errors";
import { forEachLandmark, landmarkPeaks } from "./landmarks";
import { computeSignature, type Signature } from "./signature";

/** A loaded index: views on its bytes, nothing copied per entry. */
export type TrackIndex = {
  trackKeys: readonly string[];
  /** Each track's length in frames. */
  trackFrames: Uint32Array;
  /** Entries of hash h are entries[offsets[h]] to entries[offsets[h + 1]] (exclusive). */
  offsets: Uint32Array;
  /** track << timeBits | anchor frame, sorted by hash, then track, then frame. */
  entries: Uint32Array;
  timeBits: number;
  /** Buckets above this size hold the catalogue's commonest hashes; the matcher skips them. */
  commonBucketSize: number;
};

/** Anchor frames take at most this many bits of an entry (9 hours at 32 ms a frame). */
const MAX_TIME_BITS = 20;

export type IndexTrack = { trackKey: string; samples: Float32Array; sampleRate: number };

export type IndexBuilder = {
  /** Computes the track's signature and adds its landmarks; the samples can be dropped after. */
  addTrack(trackKey: string, samples: Float32Array, sampleRate: number): void;
  /** Adds the landmarks of a signature computed elsewhere (for example in another thread). */
  addSignature(trackKey: string, signature: Signature): void;
  readonly trackCount: number;
  readonly entryCount: number;
  /** The index file; the builder can keep adding tracks and finish again. */
  finish(): Uint8Array;
};

/*
 * File layout (little-endian, every array 4-byte aligned):
 *   0  "TWIX"               4  version u16          6  bin fraction u8     7  hash bits u8
 *   8  sample rate u32      12 FFT size u16         14 hop u16
 *   16 time bits u8, parameters checksum u24         20 track count u32
 *   24 entry count u32      28 key bytes u32
 *   32 offsets: (2^hash bits + 1) u32, entries: entry count u32, track frames: track count u32,
 *      keys: per track u16 length and UTF-8 bytes.
 */
const HEADER_BYTES = 32;
const BUCKETS = 2 ** HASH_BITS;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function requireLittleEndian(): void {
  if (!LITTLE_ENDIAN) throw new RangeError("The index format needs a little-endian platform");
}

class GrowableUint32 {
  data = new Uint32Array(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

function bitLength(value: number): number {
  return value <= 0 ? 1 : Math.floor(Math.log2(value)) + 1;
}

export function createIndexBuilder(): IndexBuilder {
  const trackKeys: string[] = [];
  const knownKeys = new Set<string>();
  const trackFrames: number[] = [];
  const hashes = new GrowableUint32();
  const tracks = new GrowableUint32();
  const frames = new GrowableUint32();

  function addSignature(trackKey: string, signature: Signature): void {
    if (knownKeys.has(trackKey))
      throw new SignatureError("malformed", `Track ${trackKey} is already indexed`);
    const track = trackKeys.length;
    knownKeys.add(trackKey);
    trackKeys.push(trackKey);
    trackFrames.push(signature.frameCount);
    if (signature.frameCount >= 2 ** MAX_TIME_BITS) {
      throw new SignatureError("toolarge", `Track ${trackKey} is longer than an index can hold`);
    }
    forEachLandmark(landmarkPeaks(signature.frames, signature.bins), INDEX_FANOUT, (hash, anchor) => {
      hashes.push(hash);
      tracks.push(track);
      frames.push(signature.frames[anchor] as number);
    });
  }

  function finish(): Uint8Array {
    requireLittleEndian();
    const timeBits = bitLength(trackFrames.reduce((max, count) => Math.max(max, count), 0));
    if (trackKeys.length > 2 ** (32 - timeBits)) {
      throw new SignatureError("toolarge", "Too many or too long tracks for one index");
    }
    const encoder = new TextEncoder();
    const encodedKeys = trackKeys.map((key) => encoder.encode(key));
    if (encodedKeys.some((key) => key.length > 0xffff))
      throw new SignatureError("toolarge", "Track key too long");
    const keyBytes = encodedKeys.reduce((sum, key) => sum + 2 + key.length, 0);
    const entryCount = hashes.length;
    const offsetsStart = HEADER_BYTES;
    const entriesStart = offsetsStart + (BUCKETS + 1) * 4;
    const framesStart = entriesStart + entryCount * 4;
    const keysStart = framesStart + trackKeys.length * 4;
    const bytes = new Uint8Array(keysStart + keyBytes);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < 4; i++) bytes[i] = INDEX_MAGIC.charCodeAt(i);
    view.setUint16(4, INDEX_VERSION, true);
    view.setUint8(6, PEAK_BIN_FRACTION);
    view.setUint8(7, HASH_BITS);
    view.setUint32(8, SIGNATURE_SAMPLE_RATE, true);
    view.setUint16(12, FFT_SIZE, true);
    view.setUint16(14, HOP_SIZE, true);
    view.setUint8(16, timeBits);
    view.setUint8(17, INDEX_PARAMETERS_CHECKSUM & 0xff);
    view.setUint16(18, INDEX_PARAMETERS_CHECKSUM >>> 8, true);
    view.setUint32(20, trackKeys.length, true);
    view.setUint32(24, entryCount, true);
    view.setUint32(28, keyBytes, true);

    // Counting sort by hash; stable, so each bucket stays in track then frame order.
    const offsets = new Uint32Array(bytes.buffer, offsetsStart, BUCKETS + 1);
    for (let i = 0; i < entryCount; i++) {
      const h = hashes.data[i] as number;
      offsets[h + 1] = (offsets[h + 1] as number) + 1;
    }
    for (let h = 0; h < BUCKETS; h++) offsets[h + 1] = (offsets[h + 1] as number) + (offsets[h] as number);
    const cursor = offsets.slice(0, BUCKETS);
    const entries = new Uint32Array(bytes.buffer, entriesStart, entryCount);
    for (let i = 0; i < entryCount; i++) {
      const h = hashes.data[i] as number;
      const at = cursor[h] as number;
      cursor[h] = at + 1;
      entries[at] = (((tracks.data[i] as number) << timeBits) | (frames.data[i] as number)) >>> 0;
    }
    new Uint32Array(bytes.buffer, framesStart, trackKeys.length).set(trackFrames);
    let at = keysStart;
    for (const key of encodedKeys) {
      view.setUint16(at, key.length, true);
      bytes.set(key, at + 2);
      at += 2 + key.length;
    }
    return bytes;
  }

  return {
    addTrack(trackKey, samples, sampleRate) {
      addSignature(trackKey, computeSignature(samples, sampleRate));
    },
    addSignature,
    get trackCount() {
      return trackKeys.length;
    },
    get entryCount() {
      return hashes.length;
    },
    finish,
  };
}

function malformed(message: string): never {
  throw new SignatureError("malformed", `Index: ${message}`);
}

/** Checks the header and the tables' consistency, then returns views on the bytes. */
export function loadIndex(input: Uint8Array): TrackIndex {
  requireLittleEndian();
  // Typed-array views need 4-byte alignment; a misaligned slice is copied once.
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  if (bytes.length < HEADER_BYTES) malformed("shorter than its header");
  for (let i = 0; i < 4; i++) if (bytes[i] !== INDEX_MAGIC.charCodeAt(i)) malformed("not an index");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(4, true);
  if (version !== INDEX_VERSION) {
    throw new SignatureError("unsupportedversion", `Index version ${version} is not ${INDEX_VERSION}`);
  }
  if (
    view.getUint8(6) !== PEAK_BIN_FRACTION ||
    view.getUint8(7) !== HASH_BITS ||
    view.getUint32(8, true) !== SIGNATURE_SAMPLE_RATE ||
    view.getUint16(12, true) !== FFT_SIZE ||
    view.getUint16(14, true) !== HOP_SIZE ||
    (view.getUint8(17) | (view.getUint16(18, true) << 8)) !== INDEX_PARAMETERS_CHECKSUM
  ) {
    throw new SignatureError("mismatchedparameters", "Index built with other signature parameters");
  }
  const timeBits = view.getUint8(16);
  const trackCount = view.getUint32(20, true);
  const entryCount = view.getUint32(24, true);
  const keyBytes = view.getUint32(28, true);
  if (timeBits < 1 || timeBits > MAX_TIME_BITS) malformed("bad time bits");
  const offsetsStart = bytes.byteOffset + HEADER_BYTES;
  const entriesStart = offsetsStart + (BUCKETS + 1) * 4;
  const framesStart = entriesStart + entryCount * 4;
  const keysStart = framesStart + trackCount * 4;
  if (keysStart + keyBytes !== bytes.byteOffset + bytes.length) malformed("sizes do not add up");
  const offsets = new Uint32Array(bytes.buffer, offsetsStart, BUCKETS + 1);
  if (offsets[0] !== 0 || offsets[BUCKETS] !== entryCount) malformed("bad offsets");
  let nonEmpty = 0;
  for (let h = 0; h < BUCKETS; h++) {
    const size = (offsets[h + 1] as number) - (offsets[h] as number);
    if (size < 0) malformed("bad offsets");
    if (size > 0) nonEmpty++;
  }
  const commonBucketSize = Math.max(
    MATCH_MIN_COMMON_BUCKET,
    Math.ceil((MATCH_COMMON_BUCKET_FACTOR * entryCount) / Math.max(1, nonEmpty)),
  );
  const entries = new Uint32Array(bytes.buffer, entriesStart, entryCount);
  const trackFrames = new Uint32Array(bytes.buffer, framesStart, trackCount);

  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const trackKeys: string[] = [];
  let at = keysStart - bytes.byteOffset;
  for (let t = 0; t < trackCount; t++) {
    if (at + 2 > bytes.length) malformed("truncated keys");
    const length = view.getUint16(at, true);
    if (at + 2 + length > bytes.length) malformed("truncated keys");
    trackKeys.push(decoder.decode(bytes.subarray(at + 2, at + 2 + length)));
    at += 2 + length;
  }
  if (at !== bytes.length) malformed("trailing bytes");
  return { trackKeys, trackFrames, offsets, entries, timeBits, commonBucketSize };
}
