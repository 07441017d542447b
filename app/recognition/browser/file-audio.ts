import { RECORDING_CHECKPOINTS_SECONDS, SIGNATURE_SAMPLE_RATE } from "#signature/constants.ts";
import { mixToMono } from "#signature/mono.ts";
import { RecognitionFailure } from "./failures";
import { FILE_MAX_BYTES, FILE_MAX_SECONDS, FILE_MIN_SECONDS } from "./input-support";

/**
 * A file identified in the browser. It is decoded by the browser (whatever it can play)
 * and never leaves it: only the signatures of its first seconds are sent, as for the microphone.
 */

export type DecodedFile = { samples: Float32Array; sampleRate: number };

/** The part of an OfflineAudioContext that decodes. */
export type AudioDecoder = { decodeAudioData(data: ArrayBuffer): Promise<AudioBuffer> };

/**
 * Decodes a file to mono at the signature's rate (the browser resamples while decoding, so a long
 * file takes a sixth of the memory it would at 48 kHz). Empty, too long and undecodable files fail
 * with their own RecognitionFailure.
 */
export async function decodeRecognitionFile(
  file: Blob,
  createDecoder: (sampleRate: number) => AudioDecoder = defaultDecoder,
): Promise<DecodedFile> {
  if (file.size === 0) throw RecognitionFailure.recording("fileempty", "The file is empty");
  if (file.size > FILE_MAX_BYTES) {
    throw RecognitionFailure.recording("filetoolong", `The file has ${file.size} bytes`);
  }
  let decoded: AudioBuffer;
  try {
    decoded = await createDecoder(SIGNATURE_SAMPLE_RATE).decodeAudioData(await file.arrayBuffer());
  } catch (error) {
    throw RecognitionFailure.recording(
      "fileunreadable",
      error instanceof Error ? error.message : String(error),
    );
  }
  if (decoded.duration < FILE_MIN_SECONDS) {
    throw RecognitionFailure.recording("fileempty", `The file lasts ${decoded.duration} s`);
  }
  if (decoded.duration > FILE_MAX_SECONDS) {
    throw RecognitionFailure.recording("filetoolong", `The file lasts ${decoded.duration} s`);
  }
  // Only what the checkpoints hear is mixed down.
  const length = Math.min(decoded.length, lastCheckpointSeconds * decoded.sampleRate);
  const channels = Array.from({ length: decoded.numberOfChannels }, (_, channel) =>
    decoded.getChannelData(channel).slice(0, length),
  );
  const samples = mixToMono(channels);
  return { samples, sampleRate: decoded.sampleRate };
}

const lastCheckpointSeconds = RECORDING_CHECKPOINTS_SECONDS[
  RECORDING_CHECKPOINTS_SECONDS.length - 1
] as number;

/**
 * The lengths a file is tried at: the checkpoints it is longer than, then the whole of it when it
 * ends before the last one (that attempt is the final one).
 */
export function fileCheckpointSeconds(durationSeconds: number): number[] {
  const within = RECORDING_CHECKPOINTS_SECONDS.filter((seconds) => seconds < durationSeconds);
  return within.length === RECORDING_CHECKPOINTS_SECONDS.length ? within : [...within, durationSeconds];
}

function defaultDecoder(sampleRate: number): AudioDecoder {
  // One frame is enough: the context only decodes, it never renders.
  return new OfflineAudioContext(1, 1, sampleRate);
}
