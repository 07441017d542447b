import { describe, expect, test } from "vitest";
import {
  type AudioDecoder,
  decodeRecognitionFile,
  fileCheckpointSeconds,
} from "#app/recognition/browser/file-audio.ts";
import { FILE_MAX_BYTES, FILE_MAX_SECONDS } from "#app/recognition/browser/input-support.ts";

// A file's limits and the lengths it is tried at.

/** A decoder answering `seconds` of two channels at `sampleRate`, or failing as browsers do. */
function decoder(seconds: number | "fails", sampleRate = 8000): (rate: number) => AudioDecoder {
  return () => ({
    async decodeAudioData() {
      if (seconds === "fails") throw new DOMException("Unable to decode audio data", "EncodingError");
      const length = Math.round(seconds * sampleRate);
      const channels = [new Float32Array(length).fill(0.5), new Float32Array(length).fill(-0.25)];
      return {
        duration: seconds,
        length,
        sampleRate,
        numberOfChannels: 2,
        getChannelData: (channel: number) => channels[channel] as Float32Array,
      } as unknown as AudioBuffer;
    },
  });
}

const someBytes = new Blob([new Uint8Array(64)]);

describe("decodeRecognitionFile", () => {
  test("mixes the first 12 s to mono at the decoded rate", async () => {
    const decoded = await decodeRecognitionFile(someBytes, decoder(40));
    expect(decoded.sampleRate).toBe(8000);
    expect(decoded.samples).toHaveLength(12 * 8000);
    expect(decoded.samples[0]).toBeCloseTo(0.125);
  });

  test.each([
    ["an empty file", new Blob([]), decoder(40), "fileempty"],
    ["a file under a second", someBytes, decoder(0.5), "fileempty"],
    ["a file larger than the limit", { size: FILE_MAX_BYTES + 1 } as Blob, decoder(40), "filetoolong"],
    ["audio longer than the limit", someBytes, decoder(FILE_MAX_SECONDS + 1, 100), "filetoolong"],
    ["a file the browser cannot decode", someBytes, decoder("fails"), "fileunreadable"],
  ])("%s fails as %s", async (_name, file, decode, kind) => {
    await expect(decodeRecognitionFile(file, decode)).rejects.toMatchObject({ kind });
  });
});

describe("fileCheckpointSeconds", () => {
  test.each([
    [40, [3, 6, 9, 12]],
    [12, [3, 6, 9, 12]],
    [7.5, [3, 6, 7.5]],
    [2, [2]],
  ])("a file of %f s is tried at %j", (seconds, lengths) => {
    expect(fileCheckpointSeconds(seconds)).toEqual(lengths);
  });
});
