import { base64ToBytes, bytesToBase64 } from "./base64";
import {
  FFT_SIZE,
  HOP_SIZE,
  MAX_INPUT_SAMPLE_RATE,
  MIN_INPUT_SAMPLE_RATE,
  PEAK_BIN_FRACTION,
  SIGNATURE_DENSITY_WINDOW_FRAMES,
  SIGNATURE_MAGIC,
  SIGNATURE_MAX_BASE64_LENGTH,
  SIGNATURE_MAX_BYTES,
  SIGNATURE_MAX_PEAKS,
  SIGNATURE_MAX_PEAKS_PER_FRAME,
  SIGNATURE_MAX_PEAKS_PER_SECOND,
  SIGNATURE_MAX_SECONDS,
  SIGNATURE_SAMPLE_RATE,
  SIGNATURE_VERSION,
} from "./constants";
import { SignatureError } from "./errors";
import { MAX_PEAK_BIN, spectrogramPeaks } from "./peaks";
import { resample } from "./resample";

/**
 * The audio signature of a recording: its landmark peaks at the fixed analysis rate. The pairs
 * and their hashes are formed from the peaks by whoever matches, which is what lets the matcher
 * try several speeds (see SKEW_FACTORS) on one signature.
 */
export type Signature = {
  sampleRate: number;
  fftSize: number;
  hop: number;
  /** Frames analysed: the recording's length in hops. */
  frameCount: number;
  /** Peak frames, non-decreasing. */
  frames: Uint32Array;
  /** Peak frequencies in 1/PEAK_BIN_FRACTION of an FFT bin, increasing within a frame. */
  bins: Uint16Array;
};

const HEADER_BYTES = 24;
const MAX_FRAME_COUNT = Math.ceil((SIGNATURE_MAX_SECONDS * SIGNATURE_SAMPLE_RATE) / HOP_SIZE);
const MAX_BIN = MAX_PEAK_BIN * PEAK_BIN_FRACTION + PEAK_BIN_FRACTION / 2;

/** Signature of mono samples at any rate from MIN_INPUT_SAMPLE_RATE to MAX_INPUT_SAMPLE_RATE. */
export function computeSignature(samples: Float32Array, sampleRate: number): Signature {
  if (
    !Number.isFinite(sampleRate) ||
    sampleRate < MIN_INPUT_SAMPLE_RATE ||
    sampleRate > MAX_INPUT_SAMPLE_RATE
  ) {
    throw new SignatureError(
      "samplerate",
      `Sample rate ${sampleRate} is outside ${MIN_INPUT_SAMPLE_RATE}-${MAX_INPUT_SAMPLE_RATE} Hz`,
    );
  }
  const atFixedRate =
    Math.round(sampleRate) === SIGNATURE_SAMPLE_RATE
      ? samples
      : resample(samples, sampleRate, SIGNATURE_SAMPLE_RATE);
  const peaks = spectrogramPeaks(atFixedRate);
  return {
    sampleRate: SIGNATURE_SAMPLE_RATE,
    fftSize: FFT_SIZE,
    hop: HOP_SIZE,
    frameCount: peaks.frameCount,
    frames: peaks.frames,
    bins: peaks.bins,
  };
}

/** The densest stretches of a signature's peaks, which bound what matching it costs. */
export type SignatureDensity = {
  /** Most peaks in any one second (SIGNATURE_DENSITY_WINDOW_FRAMES frames; all of a shorter one). */
  peaksPerSecond: number;
  /** Most peaks sharing one frame. */
  peaksPerFrame: number;
  peaks: number;
};

/** Peaks per second and per frame at their densest, in one pass (frames are non-decreasing). */
export function signatureDensity(signature: Signature): SignatureDensity {
  const { frames } = signature;
  let peaksPerSecond = 0;
  let peaksPerFrame = 0;
  let windowStart = 0;
  let frameStart = 0;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i] as number;
    while ((frames[windowStart] as number) <= frame - SIGNATURE_DENSITY_WINDOW_FRAMES) windowStart++;
    if (frames[frameStart] !== frame) frameStart = i;
    peaksPerSecond = Math.max(peaksPerSecond, i - windowStart + 1);
    peaksPerFrame = Math.max(peaksPerFrame, i - frameStart + 1);
  }
  return { peaksPerSecond, peaksPerFrame, peaks: frames.length };
}

/**
 * Refuses a signature denser or larger than real audio makes (SIGNATURE_MAX_PEAKS_PER_SECOND,
 * SIGNATURE_MAX_PEAKS_PER_FRAME, SIGNATURE_MAX_PEAKS): what matching it costs grows with its
 * peaks. The message is fixed: nothing of the input goes back to the client.
 */
export function checkSignatureBounds(signature: Signature): void {
  const density = signatureDensity(signature);
  if (
    density.peaks > SIGNATURE_MAX_PEAKS ||
    density.peaksPerSecond > SIGNATURE_MAX_PEAKS_PER_SECOND ||
    density.peaksPerFrame > SIGNATURE_MAX_PEAKS_PER_FRAME
  ) {
    throw new SignatureError("toodense", "Signature denser than a recording can be");
  }
}

/** Length of the recording a signature covers, in milliseconds. */
export function signatureDurationMs(signature: Signature): number {
  return (signature.frameCount * signature.hop * 1000) / signature.sampleRate;
}

/**
 * Binary format, little-endian:
 * "TWSG", version u8, bin fraction u8, FFT size u16, hop u16, reserved u16 (0), sample rate u32,
 * frame count u32, peak count u32, then per peak: frame minus the previous peak's frame (LEB128
 * varint) and frequency u16.
 */
export function encodeSignature(signature: Signature): Uint8Array {
  const count = signature.frames.length;
  if (signature.bins.length !== count) throw new SignatureError("malformed", "Peak arrays differ in length");
  if (signature.frameCount > MAX_FRAME_COUNT) {
    throw new SignatureError("toolarge", `Signature longer than ${SIGNATURE_MAX_SECONDS} s`);
  }
  const buffer = new Uint8Array(HEADER_BYTES + count * 7);
  const view = new DataView(buffer.buffer);
  for (let i = 0; i < 4; i++) buffer[i] = SIGNATURE_MAGIC.charCodeAt(i);
  view.setUint8(4, SIGNATURE_VERSION);
  view.setUint8(5, PEAK_BIN_FRACTION);
  view.setUint16(6, signature.fftSize, true);
  view.setUint16(8, signature.hop, true);
  view.setUint16(10, 0, true);
  view.setUint32(12, signature.sampleRate, true);
  view.setUint32(16, signature.frameCount, true);
  view.setUint32(20, count, true);
  let offset = HEADER_BYTES;
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const frame = signature.frames[i] as number;
    let delta = frame - previous;
    previous = frame;
    while (delta >= 0x80) {
      buffer[offset++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    buffer[offset++] = delta;
    view.setUint16(offset, signature.bins[i] as number, true);
    offset += 2;
  }
  if (offset > SIGNATURE_MAX_BYTES) {
    throw new SignatureError("toolarge", `Signature of ${offset} bytes exceeds ${SIGNATURE_MAX_BYTES}`);
  }
  return buffer.slice(0, offset);
}

/**
 * Parses and checks an encoded signature: size, magic, version, the analysis parameters (they
 * must be this build's, which fixes the frames a second), every peak in range and in order,
 * nothing left over, and no denser than a recording (checkSignatureBounds).
 */
export function decodeSignature(bytes: Uint8Array): Signature {
  if (bytes.length > SIGNATURE_MAX_BYTES) {
    throw new SignatureError("toolarge", `Signature of ${bytes.length} bytes exceeds ${SIGNATURE_MAX_BYTES}`);
  }
  if (bytes.length < HEADER_BYTES) throw new SignatureError("malformed", "Signature shorter than its header");
  for (let i = 0; i < 4; i++) {
    if (bytes[i] !== SIGNATURE_MAGIC.charCodeAt(i)) throw new SignatureError("malformed", "Not a signature");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(4);
  if (version !== SIGNATURE_VERSION) {
    throw new SignatureError(
      "unsupportedversion",
      `Signature version ${version} is not ${SIGNATURE_VERSION}`,
    );
  }
  const fraction = view.getUint8(5);
  const fftSize = view.getUint16(6, true);
  const hop = view.getUint16(8, true);
  const reserved = view.getUint16(10, true);
  const sampleRate = view.getUint32(12, true);
  if (
    fraction !== PEAK_BIN_FRACTION ||
    fftSize !== FFT_SIZE ||
    hop !== HOP_SIZE ||
    sampleRate !== SIGNATURE_SAMPLE_RATE ||
    reserved !== 0
  ) {
    throw new SignatureError(
      "mismatchedparameters",
      `Signature made at ${sampleRate} Hz, FFT ${fftSize}, hop ${hop}; expected ${SIGNATURE_SAMPLE_RATE} Hz, FFT ${FFT_SIZE}, hop ${HOP_SIZE}`,
    );
  }
  const frameCount = view.getUint32(16, true);
  if (frameCount > MAX_FRAME_COUNT) {
    throw new SignatureError("toolarge", `Signature longer than ${SIGNATURE_MAX_SECONDS} s`);
  }
  const count = view.getUint32(20, true);
  if (count > (bytes.length - HEADER_BYTES) / 3) {
    throw new SignatureError("malformed", "Peak count larger than the data");
  }
  const frames = new Uint32Array(count);
  const bins = new Uint16Array(count);
  let offset = HEADER_BYTES;
  let frame = 0;
  let previousBin = -1;
  for (let i = 0; i < count; i++) {
    let delta = 0;
    let shift = 0;
    for (;;) {
      if (offset >= bytes.length || shift > 21) throw new SignatureError("malformed", "Truncated peak");
      const byte = bytes[offset++] as number;
      delta |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) break;
      shift += 7;
    }
    if (offset + 2 > bytes.length) throw new SignatureError("malformed", "Truncated peak");
    const bin = view.getUint16(offset, true);
    offset += 2;
    if (delta === 0 && bin <= previousBin) throw new SignatureError("malformed", "Peaks out of order");
    frame += delta;
    if (frame >= frameCount) throw new SignatureError("malformed", "Peak after the last frame");
    if (bin > MAX_BIN) throw new SignatureError("malformed", "Peak frequency out of range");
    frames[i] = frame;
    bins[i] = bin;
    previousBin = bin;
  }
  if (offset !== bytes.length) throw new SignatureError("malformed", "Trailing bytes after the peaks");
  const signature = { sampleRate, fftSize, hop, frameCount, frames, bins };
  checkSignatureBounds(signature);
  return signature;
}

/** The `data` of a match request. */
export function encodeSignatureBase64(signature: Signature): string {
  return bytesToBase64(encodeSignature(signature));
}

/** Parses the `data` of a match request; refuses oversized text before decoding it. */
export function decodeSignatureBase64(data: string): Signature {
  if (data.length > SIGNATURE_MAX_BASE64_LENGTH) {
    throw new SignatureError(
      "toolarge",
      `Signature data longer than ${SIGNATURE_MAX_BASE64_LENGTH} characters`,
    );
  }
  const bytes = base64ToBytes(data);
  if (!bytes) throw new SignatureError("malformed", "Signature data is not base64");
  return decodeSignature(bytes);
}
