import { WAV_BITS_PER_SAMPLE } from "./constants";

/**
 * A mono 16-bit PCM WAV file (spec 002 §9: "mono, 16-bit wav"): what the browser builds at each
 * checkpoint and what a test feeds to Chromium as its fake microphone. Samples are clipped to
 * [-1, 1] and rounded.
 */
export function encodeWav16(samples: Float32Array, sampleRate: number): Uint8Array {
  const bytesPerSample = WAV_BITS_PER_SAMPLE / 8;
  const dataBytes = samples.length * bytesPerSample;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) bytes[at + i] = value.charCodeAt(i);
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, Math.round(sampleRate), true);
  view.setUint32(28, Math.round(sampleRate) * bytesPerSample, true);
  view.setUint16(32, bytesPerSample, true);
  view.setUint16(34, WAV_BITS_PER_SAMPLE, true);
  text(36, "data");
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) {
    const clipped = Math.max(-1, Math.min(1, samples[i] as number));
    view.setInt16(44 + i * 2, Math.round(clipped < 0 ? clipped * 32768 : clipped * 32767), true);
  }
  return bytes;
}
