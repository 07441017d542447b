/**
 * Node-only audio decoding for the catalogue builder, the bench and the command line: a file's
 * bytes to mono float samples at the file's own rate. The format is recognised by its magic
 * bytes, never by the file name.
 */
import { readFile } from "node:fs/promises";
import { FLACDecoder } from "@wasm-audio-decoders/flac";
import { OggVorbisDecoder } from "@wasm-audio-decoders/ogg-vorbis";
import { MPEGDecoder } from "mpg123-decoder";
import { OggOpusDecoder } from "ogg-opus-decoder";
import { SiteError } from "#rules/errors.ts";
import { mixToMono } from "#signature/mono.ts";

export { encodeWav16 } from "#signature/wav.ts";

export type AudioFormat = "wav" | "vorbis" | "opus" | "mp3" | "flac";

export type DecodedAudio = { samples: Float32Array; sampleRate: number; format: AudioFormat };

export type AudioDecodeErrorReason = "unsupported" | "corrupt" | "unreadable";

/**
 * A file that cannot be decoded: an `unsupported` format of the site's error catalogue, or
 * `baddata` for a supported format whose content is broken or empty.
 */
export class AudioDecodeError extends SiteError {
  readonly reason: AudioDecodeErrorReason;

  constructor(reason: AudioDecodeErrorReason, message: string) {
    super(reason === "unsupported" ? "unsupported" : "baddata", message, { args: { reason } });
    this.name = "AudioDecodeError";
    this.reason = reason;
  }
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let text = "";
  for (let i = start; i < start + length && i < bytes.length; i++)
    text += String.fromCharCode(bytes[i] as number);
  return text;
}

/** Size of a leading ID3v2 tag (MP3 files often start with one), 0 without. */
function id3Length(bytes: Uint8Array): number {
  if (ascii(bytes, 0, 3) !== "ID3" || bytes.length < 10) return 0;
  const size =
    (((bytes[6] as number) & 0x7f) << 21) |
    (((bytes[7] as number) & 0x7f) << 14) |
    (((bytes[8] as number) & 0x7f) << 7) |
    ((bytes[9] as number) & 0x7f);
  const footer = ((bytes[5] as number) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/** An MPEG audio frame header (layer I, II or III; not AAC, whose layer bits are 00). */
function isMpegFrame(bytes: Uint8Array, at: number): boolean {
  if (at + 4 > bytes.length) return false;
  const b1 = bytes[at + 1] as number;
  const b2 = bytes[at + 2] as number;
  const version = (b1 >> 3) & 3;
  const layer = (b1 >> 1) & 3;
  const bitrate = b2 >> 4;
  const rate = (b2 >> 2) & 3;
  return (
    bytes[at] === 0xff && (b1 & 0xe0) === 0xe0 && version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3
  );
}

/** The format of a file from its first bytes; null when it is none we decode. */
export function detectAudioFormat(bytes: Uint8Array): AudioFormat | null {
  const magic = ascii(bytes, 0, 4);
  if ((magic === "RIFF" || magic === "RIFX" || magic === "RF64") && ascii(bytes, 8, 4) === "WAVE")
    return "wav";
  if (magic === "fLaC") return "flac";
  if (magic === "OggS") {
    // The first page carries the codec's identification header right after the segment table.
    const segments = bytes[26] ?? 0;
    const packet = 27 + segments;
    if (ascii(bytes, packet + 1, 6) === "vorbis" && bytes[packet] === 1) return "vorbis";
    if (ascii(bytes, packet, 8) === "OpusHead") return "opus";
    if (ascii(bytes, packet + 1, 4) === "FLAC" && bytes[packet] === 0x7f) return "flac";
    return null;
  }
  const start = id3Length(bytes);
  if (start > 0 && ascii(bytes, start, 4) === "fLaC") return "flac";
  if (isMpegFrame(bytes, start)) return "mp3";
  return null;
}

function unsupported(bytes: Uint8Array): never {
  const magic = ascii(bytes, 0, 4);
  const printable = /^[\x20-\x7e]{4}$/.test(magic) ? ` (starts with "${magic}")` : "";
  throw new AudioDecodeError(
    "unsupported",
    `Unsupported audio format${printable}: expected WAV, Ogg Vorbis, Opus, MP3 or FLAC`,
  );
}

function corrupt(message: string): never {
  throw new AudioDecodeError("corrupt", message);
}

type WavFormat = { tag: number; channels: number; sampleRate: number; blockAlign: number; bits: number };

/**
 * RIFF WAVE: PCM 8 (unsigned), 16, 24 and 32-bit, IEEE float 32 and 64-bit, plain or
 * WAVE_FORMAT_EXTENSIBLE, any rate and channel count. A data chunk whose size runs past the end of
 * the file (a recorder that never closed it) is read up to the end.
 */
export function decodeWav(bytes: Uint8Array): DecodedAudio {
  if (ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WAVE") {
    if (ascii(bytes, 0, 4) === "RIFX" || ascii(bytes, 0, 4) === "RF64") {
      throw new AudioDecodeError("unsupported", "Big-endian (RIFX) and RF64 WAV files are not supported");
    }
    corrupt("Not a RIFF WAVE file");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: WavFormat | undefined;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at, 4);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") {
      if (size < 16 || body + 16 > bytes.length) corrupt("WAV fmt chunk too short");
      let tag = view.getUint16(body, true);
      const bits = view.getUint16(body + 14, true);
      if (tag === 0xfffe) {
        if (size < 40 || body + 26 > bytes.length) corrupt("WAV extensible fmt chunk too short");
        tag = view.getUint16(body + 24, true);
      }
      format = {
        tag,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bits,
      };
    } else if (id === "data") {
      if (!format) corrupt("WAV data chunk before its fmt chunk");
      const end = Math.min(bytes.length, body + size);
      return { samples: wavSamples(view, body, end, format), sampleRate: format.sampleRate, format: "wav" };
    }
    at = body + size + (size % 2);
  }
  return corrupt(format ? "WAV file without a data chunk" : "WAV file without a fmt chunk");
}

function wavSamples(view: DataView, start: number, end: number, format: WavFormat): Float32Array {
  const { tag, channels, sampleRate, blockAlign, bits } = format;
  if (channels < 1) corrupt("WAV file with no channels");
  if (sampleRate < 1) corrupt("WAV file with a zero sample rate");
  const isPcm = tag === 1 && (bits === 8 || bits === 16 || bits === 24 || bits === 32);
  const isFloat = tag === 3 && (bits === 32 || bits === 64);
  if (!isPcm && !isFloat) {
    throw new AudioDecodeError(
      "unsupported",
      `Unsupported WAV encoding (format ${tag}, ${bits} bits): expected PCM 8/16/24/32-bit or float 32/64-bit`,
    );
  }
  const width = bits / 8;
  if (blockAlign !== width * channels)
    corrupt(`WAV block align ${blockAlign} does not fit ${channels} x ${bits} bits`);
  const frames = Math.floor((end - start) / blockAlign);
  const mono = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) {
      const at = start + f * blockAlign + c * width;
      if (isFloat) sum += bits === 32 ? view.getFloat32(at, true) : view.getFloat64(at, true);
      else if (bits === 8) sum += (view.getUint8(at) - 128) / 128;
      else if (bits === 16) sum += view.getInt16(at, true) / 32768;
      else if (bits === 24)
        sum += ((view.getUint8(at) | (view.getUint16(at + 1, true) << 8)) << 8) / 2147483648;
      else sum += view.getInt32(at, true) / 2147483648;
    }
    mono[f] = sum / channels;
  }
  return mono;
}

type WasmDecoded = {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: unknown[];
};

function fromWasm(decoded: WasmDecoded, format: AudioFormat): DecodedAudio {
  if (decoded.samplesDecoded === 0 || decoded.sampleRate === 0) {
    corrupt(`No ${format} audio could be decoded${decoded.errors.length > 0 ? " (corrupt data)" : ""}`);
  }
  const channels = decoded.channelData.map((channel) => channel.subarray(0, decoded.samplesDecoded));
  return { samples: mixToMono(channels).slice(), sampleRate: decoded.sampleRate, format };
}

async function decodeWith(format: AudioFormat, bytes: Uint8Array): Promise<DecodedAudio> {
  switch (format) {
    case "wav":
      return decodeWav(bytes);
    case "vorbis": {
      const decoder = new OggVorbisDecoder();
      await decoder.ready;
      try {
        return fromWasm(await decoder.decodeFile(bytes), format);
      } finally {
        decoder.free();
      }
    }
    case "opus": {
      const decoder = new OggOpusDecoder();
      await decoder.ready;
      try {
        return fromWasm(await decoder.decodeFile(bytes), format);
      } finally {
        decoder.free();
      }
    }
    case "flac": {
      const decoder = new FLACDecoder();
      await decoder.ready;
      try {
        return fromWasm(await decoder.decodeFile(bytes), format);
      } finally {
        decoder.free();
      }
    }
    case "mp3": {
      const decoder = new MPEGDecoder();
      await decoder.ready;
      try {
        return fromWasm(decoder.decode(bytes), format);
      } finally {
        decoder.free();
      }
    }
  }
}

/** Decodes a whole file held in memory to mono samples at its own rate. */
export async function decodeAudio(bytes: Uint8Array): Promise<DecodedAudio> {
  const format = detectAudioFormat(bytes);
  if (!format) unsupported(bytes);
  try {
    return await decodeWith(format, bytes);
  } catch (error) {
    if (error instanceof AudioDecodeError) throw error;
    throw new AudioDecodeError(
      "corrupt",
      `Corrupt ${format} data: ${error instanceof Error ? error.message : error}`,
    );
  }
}

/** Reads and decodes an audio file: WAV, Ogg Vorbis, Opus, MP3 or FLAC, recognised by content. */
export async function decodeAudioFile(path: string): Promise<DecodedAudio> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new AudioDecodeError("unreadable", `Cannot read ${path}${code ? ` (${code})` : ""}`);
  }
  return decodeAudio(bytes);
}
