import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  AudioDecodeError,
  decodeAudio,
  decodeAudioFile,
  detectAudioFormat,
  encodeWav16,
} from "#origin/catalog/audio-decode.ts";
import { createFftPlan, fft } from "#signature/fft.ts";
import { encodedFixtures } from "./decode-fixtures";

function base64Bytes(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}

/** Frequency of the strongest FFT bin of the samples' middle part (Hann window, parabolic peak). */
function dominantFrequency(samples: Float32Array, sampleRate: number): number {
  const size = 2 ** Math.floor(Math.log2(Math.min(samples.length, 16384)));
  const start = Math.floor((samples.length - size) / 2);
  const plan = createFftPlan(size);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let i = 0; i < size; i++)
    re[i] = (samples[start + i] ?? 0) * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size));
  fft(plan, re, im);
  let best = 1;
  const power = (k: number) => Math.log((re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2 + 1e-20);
  for (let k = 1; k < size / 2; k++) if (power(k) > power(best)) best = k;
  const a = power(best - 1);
  const b = power(best);
  const c = power(best + 1);
  const delta = (0.5 * (a - c)) / (a - 2 * b + c);
  return ((best + delta) * sampleRate) / size;
}

function rms(samples: Float32Array): number {
  let sum = 0;
  for (const value of samples) sum += value * value;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

type WavEncoding = { tag: 1 | 3; bits: 8 | 16 | 24 | 32 | 64; extensible?: boolean };

/** A WAV writer independent of the decoder under test: any encoding, rate and channel count. */
function writeWav(
  channels: Float32Array[],
  sampleRate: number,
  encoding: WavEncoding,
  options: { extraChunk?: boolean; dataSizeOverride?: number } = {},
): Uint8Array {
  const width = encoding.bits / 8;
  const frames = channels[0]?.length ?? 0;
  const blockAlign = width * channels.length;
  const fmtSize = encoding.extensible ? 40 : 16;
  const extra = options.extraChunk ? 8 + 5 + 1 : 0;
  const dataBytes = frames * blockAlign;
  const bytes = new Uint8Array(12 + extra + 8 + fmtSize + 8 + dataBytes);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) bytes[at + i] = value.charCodeAt(i);
  };
  text(0, "RIFF");
  view.setUint32(4, bytes.length - 8, true);
  text(8, "WAVE");
  let at = 12;
  if (options.extraChunk) {
    // An odd-sized chunk before fmt: readers must skip its pad byte.
    text(at, "LIST");
    view.setUint32(at + 4, 5, true);
    text(at + 8, "INFOx");
    at += 8 + 5 + 1;
  }
  text(at, "fmt ");
  view.setUint32(at + 4, fmtSize, true);
  view.setUint16(at + 8, encoding.extensible ? 0xfffe : encoding.tag, true);
  view.setUint16(at + 10, channels.length, true);
  view.setUint32(at + 12, sampleRate, true);
  view.setUint32(at + 16, sampleRate * blockAlign, true);
  view.setUint16(at + 20, blockAlign, true);
  view.setUint16(at + 22, encoding.bits, true);
  if (encoding.extensible) {
    view.setUint16(at + 24, 22, true);
    view.setUint16(at + 26, encoding.bits, true);
    view.setUint32(at + 28, channels.length === 1 ? 4 : 3, true);
    view.setUint16(at + 32, encoding.tag, true);
  }
  at += 8 + fmtSize;
  text(at, "data");
  view.setUint32(at + 4, options.dataSizeOverride ?? dataBytes, true);
  at += 8;
  for (let f = 0; f < frames; f++) {
    for (const channel of channels) {
      const v = channel[f] as number;
      if (encoding.tag === 3) {
        if (encoding.bits === 32) view.setFloat32(at, v, true);
        else view.setFloat64(at, v, true);
      } else if (encoding.bits === 8) view.setUint8(at, Math.round(v * 127) + 128);
      else if (encoding.bits === 16) view.setInt16(at, Math.round(v * 32767), true);
      else if (encoding.bits === 24) {
        const x = Math.round(v * 8388607);
        view.setUint8(at, x & 0xff);
        view.setUint8(at + 1, (x >> 8) & 0xff);
        view.setUint8(at + 2, (x >> 16) & 0xff);
      } else view.setInt32(at, Math.round(v * 2147483647), true);
      at += width;
    }
  }
  return bytes;
}

function sine(
  length: number,
  sampleRate: number,
  frequency: number,
  amplitude: number,
  phase = 0,
): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++)
    out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate + phase);
  return out;
}

const WAV_ENCODINGS: { name: string; encoding: WavEncoding; tolerance: number }[] = [
  { name: "8-bit PCM", encoding: { tag: 1, bits: 8 }, tolerance: 1 / 100 },
  { name: "16-bit PCM", encoding: { tag: 1, bits: 16 }, tolerance: 1 / 16000 },
  { name: "24-bit PCM", encoding: { tag: 1, bits: 24 }, tolerance: 1e-6 },
  { name: "32-bit PCM", encoding: { tag: 1, bits: 32 }, tolerance: 1e-6 },
  { name: "32-bit float", encoding: { tag: 3, bits: 32 }, tolerance: 1e-7 },
  { name: "64-bit float", encoding: { tag: 3, bits: 64 }, tolerance: 1e-7 },
  {
    name: "16-bit PCM, WAVE_FORMAT_EXTENSIBLE",
    encoding: { tag: 1, bits: 16, extensible: true },
    tolerance: 1 / 16000,
  },
  {
    name: "32-bit float, WAVE_FORMAT_EXTENSIBLE",
    encoding: { tag: 3, bits: 32, extensible: true },
    tolerance: 1e-7,
  },
];
const WAV_RATES = [8000, 11025, 16000, 22050, 32000, 44100, 48000];

describe("WAV", () => {
  for (const { name, encoding, tolerance } of WAV_ENCODINGS) {
    for (const sampleRate of WAV_RATES) {
      for (const channelCount of [1, 2]) {
        test(`${name}, ${sampleRate} Hz, ${channelCount === 1 ? "mono" : "stereo"}`, async () => {
          const length = Math.round(sampleRate * 0.05);
          const left = sine(length, sampleRate, 440, 0.6);
          const right = sine(length, sampleRate, 440, 0.2, 1);
          const channels = channelCount === 1 ? [left] : [left, right];
          const decoded = await decodeAudio(writeWav(channels, sampleRate, encoding, { extraChunk: true }));
          expect(decoded.format).toBe("wav");
          expect(decoded.sampleRate).toBe(sampleRate);
          expect(decoded.samples.length).toBe(length);
          let worst = 0;
          for (let i = 0; i < length; i++) {
            const expected =
              channels.reduce((sum, channel) => sum + (channel[i] as number), 0) / channels.length;
            worst = Math.max(worst, Math.abs((decoded.samples[i] as number) - expected));
          }
          expect(worst).toBeLessThanOrEqual(tolerance);
        });
      }
    }
  }

  test("a data chunk whose size runs past the end is read up to the end", async () => {
    const samples = sine(800, 8000, 300, 0.5);
    const bytes = writeWav([samples], 8000, { tag: 1, bits: 16 }, { dataSizeOverride: 0xffffffff });
    const decoded = await decodeAudio(bytes);
    expect(decoded.samples.length).toBe(800);
  });

  test("encodeWav16 writes mono 16-bit PCM that decodes to the same samples, clipped", async () => {
    const samples = Float32Array.from([0, 0.5, -0.5, 1, -1, 1.5, -2, 0.25]);
    const bytes = encodeWav16(samples, 22050);
    expect(Buffer.from(bytes.subarray(0, 4)).toString("latin1")).toBe("RIFF");
    expect(new DataView(bytes.buffer).getUint16(34, true)).toBe(16);
    expect(new DataView(bytes.buffer).getUint16(22, true)).toBe(1);
    const decoded = await decodeAudio(bytes);
    expect(decoded.sampleRate).toBe(22050);
    const expected = [0, 0.5, -0.5, 1, -1, 1, -1, 0.25];
    expected.forEach((value, i) => {
      expect(decoded.samples[i]).toBeCloseTo(value, 4);
    });
  });
});

describe("compressed formats", () => {
  for (const fixture of encodedFixtures) {
    test(`${fixture.name}: ${fixture.made}`, async () => {
      const decoded = await decodeAudio(base64Bytes(fixture.base64));
      expect(decoded.format).toBe(fixture.format);
      expect(decoded.sampleRate).toBe(fixture.sampleRate);
      // Encoders add priming and padding; the length is right within a few frames.
      expect(decoded.samples.length / decoded.sampleRate).toBeGreaterThan(fixture.seconds * 0.8);
      expect(decoded.samples.length / decoded.sampleRate).toBeLessThan(fixture.seconds + 0.2);
      expect(
        Math.abs(dominantFrequency(decoded.samples, decoded.sampleRate) / fixture.frequency - 1),
      ).toBeLessThan(0.02);
      expect(rms(decoded.samples)).toBeGreaterThan(0.15);
    });
  }

  test("an MP3 file cut short decodes the frames it has", async () => {
    const fixture = encodedFixtures.find((f) => f.name === "mp3_44k_stereo.mp3");
    const bytes = base64Bytes(fixture?.base64 ?? "");
    const whole = await decodeAudio(bytes);
    const cut = await decodeAudio(bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(cut.samples.length).toBeGreaterThan(whole.samples.length * 0.4);
    expect(cut.samples.length).toBeLessThan(whole.samples.length * 0.75);
  });
});

describe("format detection", () => {
  const cases: { name: string; bytes: () => Uint8Array; format: ReturnType<typeof detectAudioFormat> }[] = [
    { name: "RIFF WAVE", bytes: () => encodeWav16(new Float32Array(4), 8000), format: "wav" },
    ...encodedFixtures.map((fixture) => ({
      name: fixture.name,
      bytes: () => base64Bytes(fixture.base64),
      format: fixture.format,
    })),
    {
      name: "MP3 behind an ID3v2 tag",
      bytes: () => {
        const mp3 = base64Bytes(encodedFixtures.find((f) => f.format === "mp3")?.base64 ?? "");
        const tag = Uint8Array.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 4, 1, 2, 3, 4]);
        const bytes = new Uint8Array(tag.length + mp3.length);
        bytes.set(tag);
        bytes.set(mp3, tag.length);
        return bytes;
      },
      format: "mp3",
    },
    {
      name: "ADTS AAC (layer bits 00)",
      bytes: () => Uint8Array.from([0xff, 0xf1, 0x50, 0x80, 0, 0x1f, 0xfc]),
      format: null,
    },
    { name: "empty", bytes: () => new Uint8Array(0), format: null },
    { name: "text", bytes: () => new TextEncoder().encode("hello, this is not audio"), format: null },
    {
      name: "PNG",
      bytes: () => Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      format: null,
    },
    {
      name: "Ogg with an unknown codec",
      bytes: () => {
        const bytes = new Uint8Array(40);
        bytes.set(new TextEncoder().encode("OggS"));
        bytes[26] = 1;
        bytes.set(new TextEncoder().encode("\x80theora"), 28);
        return bytes;
      },
      format: null,
    },
  ];
  for (const { name, bytes, format } of cases) {
    test(`${name} -> ${format ?? "none"}`, () => {
      expect(detectAudioFormat(bytes())).toBe(format);
    });
  }
});

describe("bad files", () => {
  const cases: { name: string; bytes: () => Uint8Array; reason: string; type: string }[] = [
    {
      name: "garbage",
      bytes: () => new TextEncoder().encode("definitely not audio data"),
      reason: "unsupported",
      type: "unsupported",
    },
    { name: "empty", bytes: () => new Uint8Array(0), reason: "unsupported", type: "unsupported" },
    {
      name: "WAV without a data chunk",
      bytes: () => encodeWav16(new Float32Array(8), 8000).subarray(0, 36),
      reason: "corrupt",
      type: "baddata",
    },
    {
      name: "WAV with 12-bit samples",
      bytes: () => {
        const bytes = encodeWav16(new Float32Array(8), 8000);
        new DataView(bytes.buffer).setUint16(34, 12, true);
        return bytes;
      },
      reason: "unsupported",
      type: "unsupported",
    },
    {
      name: "WAV in A-law",
      bytes: () => {
        const bytes = encodeWav16(new Float32Array(8), 8000);
        new DataView(bytes.buffer).setUint16(20, 6, true);
        return bytes;
      },
      reason: "unsupported",
      type: "unsupported",
    },
    {
      name: "WAV whose block align does not fit",
      bytes: () => {
        const bytes = encodeWav16(new Float32Array(8), 8000);
        new DataView(bytes.buffer).setUint16(32, 3, true);
        return bytes;
      },
      reason: "corrupt",
      type: "baddata",
    },
    {
      name: "big-endian RIFX",
      bytes: () => {
        const bytes = encodeWav16(new Float32Array(8), 8000);
        bytes.set(new TextEncoder().encode("RIFX"));
        return bytes;
      },
      reason: "unsupported",
      type: "unsupported",
    },
    {
      name: "Ogg Vorbis headers only",
      bytes: () =>
        base64Bytes(encodedFixtures.find((f) => f.format === "vorbis")?.base64 ?? "").subarray(0, 120),
      reason: "corrupt",
      type: "baddata",
    },
    {
      name: "Opus identification page only",
      bytes: () =>
        base64Bytes(encodedFixtures.find((f) => f.format === "opus")?.base64 ?? "").subarray(0, 47),
      reason: "corrupt",
      type: "baddata",
    },
    {
      name: "FLAC with its frames zeroed",
      bytes: () => {
        const bytes = base64Bytes(encodedFixtures.find((f) => f.format === "flac")?.base64 ?? "").slice();
        bytes.fill(0, 42);
        return bytes;
      },
      reason: "corrupt",
      type: "baddata",
    },
  ];
  for (const { name, bytes, reason, type } of cases) {
    test(`${name}: ${reason}`, async () => {
      const error = await decodeAudio(bytes()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AudioDecodeError);
      expect((error as AudioDecodeError).reason).toBe(reason);
      expect((error as AudioDecodeError).type).toBe(type);
      expect((error as AudioDecodeError).message.length).toBeGreaterThan(10);
    });
  }
});

describe("decodeAudioFile", () => {
  test("reads a file from disk", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tunewave-decode-"));
    try {
      const path = join(dir, "tone.wav");
      writeFileSync(path, encodeWav16(sine(4410, 44100, 1000, 0.5), 44100));
      const decoded = await decodeAudioFile(path);
      expect(decoded.sampleRate).toBe(44100);
      expect(decoded.samples.length).toBe(4410);
      expect(dominantFrequency(decoded.samples, 44100)).toBeCloseTo(1000, -1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a missing file is unreadable", async () => {
    const error = await decodeAudioFile("/nonexistent/tunewave/audio.wav").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AudioDecodeError);
    expect((error as AudioDecodeError).reason).toBe("unreadable");
  });
});
