import type { CaptureOptions } from "~/capture-options";
import { AUDIO_BUFFER_SIZE, AUDIO_CHANNELS } from "../../../signature/constants";
import { microphoneFailure, RecognitionFailure, tabAudioFailure } from "./failures";
import { canShareTabAudio } from "./input-support";

/**
 * The microphone (spec 002 §4 Recording, §5, §9): mono capture through a ScriptProcessorNode with
 * the spec's 4096-sample buffer, at whatever rate the AudioContext runs (the signature worker
 * resamples). Browser only: nothing here runs before a visitor presses the listen button.
 */

/** The getUserMedia audio constraints: mono, and the two filters only when asked for. */
export function audioConstraints(options: Pick<CaptureOptions, "echoCancellation" | "noiseSuppression">) {
  return {
    channelCount: AUDIO_CHANNELS,
    echoCancellation: options.echoCancellation,
    noiseSuppression: options.noiseSuppression,
  } satisfies MediaTrackConstraints;
}

/**
 * Spec 002 §5: "Microphone access is detected by the existence of a labelled audio input" (browsers
 * hide device labels until the page may use them).
 */
export async function hasLabelledAudioInput(
  devices: Pick<MediaDevices, "enumerateDevices"> | undefined,
): Promise<boolean> {
  if (!devices) return false;
  try {
    const list = await devices.enumerateDevices();
    return list.some((device) => device.kind === "audioinput" && device.label.trim() !== "");
  } catch {
    return false;
  }
}

export type Microphone = {
  sampleRate: number;
  /** Epoch ms of the first captured sample (set with the first buffer). */
  startedAt(): number | undefined;
  stop(): void;
};

type AudioContextConstructor = new () => AudioContext;

function audioContextConstructor(): AudioContextConstructor | undefined {
  return (
    (globalThis as { AudioContext?: AudioContextConstructor }).AudioContext ??
    (globalThis as { webkitAudioContext?: AudioContextConstructor }).webkitAudioContext
  );
}

/**
 * Opens the microphone and calls `onSamples` with each buffer of mono samples (a copy the caller
 * owns). Fails with a RecognitionFailure (microphone denied, no microphone, unsupported...).
 */
export async function openMicrophone(
  options: CaptureOptions,
  onSamples: (samples: Float32Array) => void,
  now: () => number = Date.now,
): Promise<Microphone> {
  const mediaDevices = globalThis.navigator?.mediaDevices;
  const Context = audioContextConstructor();
  if (!mediaDevices?.getUserMedia || !Context) {
    throw RecognitionFailure.recording("unsupported", "No getUserMedia or AudioContext");
  }
  let stream: MediaStream;
  try {
    stream = await mediaDevices.getUserMedia({ audio: audioConstraints(options), video: false });
  } catch (error) {
    throw microphoneFailure(error);
  }
  return listenToStream(stream, Context, onSamples, now, microphoneFailure);
}

/**
 * Issue 46: this browser's audio, shared through the browser's picker (getDisplayMedia asks for
 * video too: Chromium refuses audio alone). The video track is stopped at once; a share without
 * sound (a window, or "share audio" left unticked) fails as "no tab audio".
 */
export async function openTabAudio(
  onSamples: (samples: Float32Array) => void,
  now: () => number = Date.now,
): Promise<Microphone> {
  const mediaDevices = globalThis.navigator?.mediaDevices;
  const Context = audioContextConstructor();
  if (!mediaDevices || !canShareTabAudio(mediaDevices) || !Context) {
    throw RecognitionFailure.recording("unsupported", "No getDisplayMedia audio");
  }
  let stream: MediaStream;
  try {
    stream = await mediaDevices.getDisplayMedia({
      video: true,
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      // The shared tab keeps playing aloud while it is heard.
      suppressLocalAudioPlayback: false,
      preferCurrentTab: false,
      selfBrowserSurface: "exclude",
    } as DisplayMediaStreamOptions);
  } catch (error) {
    throw tabAudioFailure(error);
  }
  for (const track of stream.getVideoTracks()) track.stop();
  if (stream.getAudioTracks().length === 0) {
    for (const track of stream.getTracks()) track.stop();
    throw RecognitionFailure.recording("notabaudio", "The shared surface has no audio track");
  }
  return listenToStream(new MediaStream(stream.getAudioTracks()), Context, onSamples, now, tabAudioFailure);
}

/** Mono buffers of a stream through a ScriptProcessorNode with the spec's buffer size. */
async function listenToStream(
  stream: MediaStream,
  Context: AudioContextConstructor,
  onSamples: (samples: Float32Array) => void,
  now: () => number,
  failure: (error: unknown) => RecognitionFailure,
): Promise<Microphone> {
  let context: AudioContext | undefined;
  try {
    context = new Context();
    const source = context.createMediaStreamSource(stream);
    const processor = context.createScriptProcessor(AUDIO_BUFFER_SIZE, AUDIO_CHANNELS, AUDIO_CHANNELS);
    const rate = context.sampleRate;
    let first: number | undefined;
    let stopped = false;
    processor.onaudioprocess = (event) => {
      if (stopped) return;
      const input = event.inputBuffer.getChannelData(0);
      // The buffer's first sample was heard one buffer before this callback.
      first ??= now() - (input.length / rate) * 1000;
      onSamples(new Float32Array(input));
    };
    source.connect(processor);
    // The processor runs only when connected; it writes nothing, so nothing is heard.
    processor.connect(context.destination);
    if (context.state === "suspended") await context.resume();
    const opened = context;
    return {
      sampleRate: rate,
      startedAt: () => first,
      stop() {
        if (stopped) return;
        stopped = true;
        processor.onaudioprocess = null;
        source.disconnect();
        processor.disconnect();
        for (const track of stream.getTracks()) track.stop();
        void opened.close().catch(() => {});
      },
    };
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    void context?.close().catch(() => {});
    throw failure(error);
  }
}

/** Spec 002 §4: "start pauses page videos" (and any other playing media, which would be heard). */
export function pausePageMedia(root: Pick<Document, "querySelectorAll">): void {
  for (const media of root.querySelectorAll<HTMLMediaElement>("video, audio")) {
    if (!media.paused) media.pause();
  }
}
