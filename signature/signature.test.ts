import { describe, expect, test } from "vitest";
import { base64ToBytes, bytesToBase64 } from "#signature/base64.ts";
import { createFftPlan, fft, inverseFft } from "#signature/fft.ts";
import {
  AUDIO_BUFFER_SIZE,
  computeSignature,
  decodeSignature,
  decodeSignatureBase64,
  encodeSignature,
  encodeSignatureBase64,
  mixToMono,
  PEAK_BANDS,
  RECORDING_CHECKPOINTS_SECONDS,
  resample,
  SIGNATURE_MAX_BASE64_LENGTH,
  SIGNATURE_MAX_BYTES,
  type Signature,
  SignatureError,
  signatureDurationMs,
} from "#signature/index.ts";
import { composeTrack, renderTrack } from "#tests/unit/signature-music.ts";

function sine(seconds: number, sampleRate: number, frequency: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < out.length; i++)
    out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return out;
}

function rms(samples: Float32Array, from = 0, to = samples.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (samples[i] as number) ** 2;
  return Math.sqrt(sum / Math.max(1, to - from));
}

const music = composeTrack(7, 20);

describe("constants of the spec (002 §9)", () => {
  test("recording checkpoints and buffer", () => {
    expect(RECORDING_CHECKPOINTS_SECONDS).toEqual([3, 6, 9, 12]);
    expect(AUDIO_BUFFER_SIZE).toBe(4096);
  });
});

describe("fft", () => {
  for (const size of [2, 4, 8, 64, 1024]) {
    test(`matches the direct DFT and inverts, size ${size}`, () => {
      const xr = Array.from({ length: size }, (_, i) => Math.sin(i * 1.3) + (i % 3));
      const xi = Array.from({ length: size }, (_, i) => Math.cos(i * 0.7));
      const re = Float64Array.from(xr);
      const im = Float64Array.from(xi);
      const plan = createFftPlan(size);
      fft(plan, re, im);
      for (let k = 0; k < size; k++) {
        let sr = 0;
        let si = 0;
        for (let j = 0; j < size; j++) {
          const angle = (-2 * Math.PI * j * k) / size;
          sr += (xr[j] as number) * Math.cos(angle) - (xi[j] as number) * Math.sin(angle);
          si += (xr[j] as number) * Math.sin(angle) + (xi[j] as number) * Math.cos(angle);
        }
        expect(re[k]).toBeCloseTo(sr, 8);
        expect(im[k]).toBeCloseTo(si, 8);
      }
      inverseFft(plan, re, im);
      xr.forEach((value, j) => {
        expect(re[j]).toBeCloseTo(value, 10);
      });
    });
  }

  test("refuses a size that is not a power of two", () => {
    expect(() => createFftPlan(1000)).toThrow(RangeError);
  });
});

describe("resample", () => {
  const cases = [
    { from: 44100, to: 8000, frequency: 1000 },
    { from: 48000, to: 8000, frequency: 3000 },
    { from: 22050, to: 8000, frequency: 440 },
    { from: 8000, to: 44100, frequency: 1000 },
    { from: 44982, to: 8000, frequency: 700 },
    { from: 11025, to: 16000, frequency: 2500 },
  ];
  for (const { from, to, frequency } of cases) {
    test(`${from} -> ${to} Hz keeps a ${frequency} Hz tone`, () => {
      const input = sine(0.5, from, frequency);
      const output = resample(input, from, to);
      expect(output.length).toBe(Math.floor((input.length * to) / from));
      const expected = sine(0.5, to, frequency);
      // Away from the edges, the output is the same tone at the new rate.
      const margin = Math.round(to * 0.02);
      let worst = 0;
      for (let i = margin; i < output.length - margin; i++) {
        worst = Math.max(worst, Math.abs((output[i] as number) - (expected[i] as number)));
      }
      expect(worst).toBeLessThan(0.01);
    });
  }

  test("a tone above the new Nyquist frequency does not alias into the output", () => {
    const output = resample(sine(0.5, 48000, 6000), 48000, 8000);
    expect(rms(output, 200, output.length - 200)).toBeLessThan(0.002);
  });

  test("the same rate gives a copy", () => {
    const input = sine(0.01, 8000, 100);
    const output = resample(input, 8000, 8000);
    expect(output).toEqual(input);
    expect(output).not.toBe(input);
  });
});

describe("mixToMono", () => {
  test("averages the channels", () => {
    expect(Array.from(mixToMono([Float32Array.from([1, 0.5]), Float32Array.from([0, -0.5])]))).toEqual([
      0.5, 0,
    ]);
    expect(mixToMono([])).toHaveLength(0);
  });
});

describe("computeSignature", () => {
  test("is deterministic", () => {
    const samples = renderTrack(music, { fromSecond: 2, seconds: 6, sampleRate: 44100 });
    const a = computeSignature(samples, 44100);
    const b = computeSignature(samples.slice(), 44100);
    expect(a.frames.length).toBeGreaterThan(50);
    expect(b).toEqual(a);
    expect(encodeSignature(b)).toEqual(encodeSignature(a));
  });

  test("keeps to its density target", () => {
    const samples = renderTrack(music, { fromSecond: 0, seconds: 12, sampleRate: 16000 });
    const signature = computeSignature(samples, 16000);
    const perSecond = PEAK_BANDS.reduce((sum, band) => sum + band.perSecond, 0);
    expect(signature.frames.length / 12).toBeLessThanOrEqual(perSecond * 1.1);
    for (let i = 1; i < signature.frames.length; i++) {
      const ordered =
        (signature.frames[i] as number) > (signature.frames[i - 1] as number) ||
        (signature.frames[i] === signature.frames[i - 1] &&
          (signature.bins[i] as number) > (signature.bins[i - 1] as number));
      expect(ordered).toBe(true);
    }
  });

  test("covers the recording's length", () => {
    const signature = computeSignature(new Float32Array(3 * 22050), 22050);
    expect(signatureDurationMs(signature)).toBeGreaterThan(2800);
    expect(signatureDurationMs(signature)).toBeLessThanOrEqual(3000);
  });

  test("finds no peaks in silence, and nothing in a recording shorter than one frame", () => {
    expect(computeSignature(new Float32Array(48000 * 3), 48000).frames).toHaveLength(0);
    const tiny = computeSignature(sine(0.05, 8000, 440), 8000);
    expect(tiny.frameCount).toBe(0);
    expect(tiny.frames).toHaveLength(0);
  });

  for (const sampleRate of [0, 4000, 7999, 192001, Number.NaN]) {
    test(`refuses a sample rate of ${sampleRate}`, () => {
      expect(() => computeSignature(new Float32Array(1000), sampleRate)).toThrow(SignatureError);
    });
  }
});

function signatureOf(seconds: number): Signature {
  return computeSignature(renderTrack(music, { fromSecond: 1, seconds, sampleRate: 16000 }), 16000);
}

describe("signature encoding", () => {
  test("round trip, binary and base64", () => {
    const signature = signatureOf(12);
    const bytes = encodeSignature(signature);
    expect(decodeSignature(bytes)).toEqual(signature);
    const text = encodeSignatureBase64(signature);
    expect(text).toBe(Buffer.from(bytes).toString("base64"));
    expect(decodeSignatureBase64(text)).toEqual(signature);
  });

  test("a 12 s recording fits well under the size limit", () => {
    expect(encodeSignature(signatureOf(12)).length).toBeLessThan(SIGNATURE_MAX_BYTES / 2);
  });

  test("an empty signature round-trips", () => {
    const empty = computeSignature(new Float32Array(8000), 8000);
    expect(decodeSignature(encodeSignature(empty))).toEqual(empty);
  });

  test("a recording longer than the limit is refused at encoding", () => {
    const long = computeSignature(new Float32Array(8000 * 40), 8000);
    expect(() => encodeSignature(long)).toThrow(SignatureError);
  });

  const valid = () => encodeSignature(signatureOf(3));
  const patched = (at: number, value: number, width: 1 | 2 | 4 = 1) => {
    const bytes = valid().slice();
    const view = new DataView(bytes.buffer);
    if (width === 1) view.setUint8(at, value);
    else if (width === 2) view.setUint16(at, value, true);
    else view.setUint32(at, value, true);
    return bytes;
  };
  const malformed: { name: string; bytes: () => Uint8Array; reason: string }[] = [
    { name: "empty", bytes: () => new Uint8Array(0), reason: "malformed" },
    { name: "shorter than the header", bytes: () => valid().subarray(0, 20), reason: "malformed" },
    { name: "wrong magic", bytes: () => patched(0, 0x58), reason: "malformed" },
    { name: "other version", bytes: () => patched(4, 2), reason: "unsupportedversion" },
    { name: "other bin fraction", bytes: () => patched(5, 4), reason: "mismatchedparameters" },
    { name: "other FFT size", bytes: () => patched(6, 2048, 2), reason: "mismatchedparameters" },
    { name: "other hop", bytes: () => patched(8, 128, 2), reason: "mismatchedparameters" },
    { name: "reserved bits set", bytes: () => patched(10, 1, 2), reason: "mismatchedparameters" },
    { name: "other sample rate", bytes: () => patched(12, 16000, 4), reason: "mismatchedparameters" },
    { name: "too long a recording", bytes: () => patched(16, 1_000_000, 4), reason: "toolarge" },
    { name: "more peaks than data", bytes: () => patched(20, 100_000, 4), reason: "malformed" },
    { name: "a peak after the last frame", bytes: () => patched(16, 1, 4), reason: "malformed" },
    { name: "truncated peaks", bytes: () => valid().subarray(0, valid().length - 1), reason: "malformed" },
    {
      name: "trailing bytes",
      bytes: () => {
        const bytes = valid();
        const longer = new Uint8Array(bytes.length + 3);
        longer.set(bytes);
        return longer;
      },
      reason: "malformed",
    },
    {
      name: "peaks out of order",
      bytes: () => {
        const signature = signatureOf(3);
        const frames = Uint32Array.from(signature.frames);
        const bins = Uint16Array.from(signature.bins);
        // Two peaks of one frame in descending frequency.
        frames[1] = frames[0] as number;
        bins[1] = (bins[0] as number) - 1;
        return encodeSignature({ ...signature, frames, bins });
      },
      reason: "malformed",
    },
    {
      name: "a frequency above the analysed band",
      bytes: () => {
        const signature = signatureOf(3);
        const bins = Uint16Array.from(signature.bins);
        bins[bins.length - 1] = 60000;
        return encodeSignature({ ...signature, bins });
      },
      reason: "malformed",
    },
    { name: "oversized", bytes: () => new Uint8Array(SIGNATURE_MAX_BYTES + 1), reason: "toolarge" },
  ];
  for (const { name, bytes, reason } of malformed) {
    test(`decode refuses ${name}`, () => {
      const error = (() => {
        try {
          decodeSignature(bytes());
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(SignatureError);
      expect((error as SignatureError).reason).toBe(reason);
      expect((error as SignatureError).type).toBe("invalidparam");
    });
  }

  const badText: { name: string; text: string; reason: string }[] = [
    { name: "not base64", text: "not base64!", reason: "malformed" },
    { name: "a length not a multiple of 4", text: "VFdTRw=", reason: "malformed" },
    { name: "padding in the middle", text: "VF==RzEx", reason: "malformed" },
    {
      name: "base64 of garbage",
      text: Buffer.from("garbage, not a signature").toString("base64"),
      reason: "malformed",
    },
    {
      name: "text above the size limit",
      text: "A".repeat(SIGNATURE_MAX_BASE64_LENGTH + 4),
      reason: "toolarge",
    },
  ];
  for (const { name, text, reason } of badText) {
    test(`decodeSignatureBase64 refuses ${name}`, () => {
      expect(() => decodeSignatureBase64(text)).toThrow(SignatureError);
      try {
        decodeSignatureBase64(text);
      } catch (caught) {
        expect((caught as SignatureError).reason).toBe(reason);
      }
    });
  }
});

describe("base64", () => {
  for (const length of [0, 1, 2, 3, 4, 5, 100, 10_000]) {
    test(`matches Node's encoder and round-trips, ${length} bytes`, () => {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + 11) & 255);
      const text = bytesToBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString("base64"));
      expect(base64ToBytes(text)).toEqual(bytes);
    });
  }

  test("refuses characters outside the alphabet", () => {
    expect(base64ToBytes("ab-_")).toBeNull();
    expect(base64ToBytes("abé=")).toBeNull();
  });
});
