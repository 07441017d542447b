import type { CaptureOptions } from "#app/recognition/capture-options.ts";
import { AUDIO_BUFFER_SIZE, AUDIO_CHANNELS } from "#signature/constants.ts";
import { microphoneFailure, RecognitionFailure, tabAudioFailure } from "./failures";
import { canShareTabAudio, closeAudioContext, microphoneSupport } from "./input-support";

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

/** What a capture tells its listener while it runs. */
export type CaptureListener = {
  /** Each buffer of mono samples (a copy the listener owns). */
  samples(samples: Float32Array): void;
  /**
   * Listening stopped by itself, at most once and never after `stop()`: a RecognitionFailure
   * "background" (the page was hidden) or "inputended" (the input ended or was interrupted).
   */
  interrupted(failure: RecognitionFailure): void;
};

/**
 * Opens the microphone into `context` (created in the tap: input-support.ts audioContextInGesture),
 * which it owns from here: closed on failure and by `stop()`. Fails with a RecognitionFailure
 * (insecure page, unsupported, microphone denied, no microphone...).
 */
export async function openMicrophone(
  options: CaptureOptions,
  context: AudioContext,
  listener: CaptureListener,
  now: () => number = Date.now,
): Promise<Microphone> {
  const support = microphoneSupport();
  const mediaDevices = globalThis.navigator?.mediaDevices;
  if (support !== "supported" || !mediaDevices) {
    closeAudioContext(context);
    throw RecognitionFailure.recording(support === "insecure" ? "insecure" : "unsupported");
  }
  let stream: MediaStream;
  try {
    stream = await mediaDevices.getUserMedia({ audio: audioConstraints(options), video: false });
  } catch (error) {
    closeAudioContext(context);
    throw microphoneFailure(error);
  }
  // A phone stops hearing a page it no longer shows (iOS silences the microphone, timers slow
  // down): listening ends, and says so, when the page is hidden (decision 054).
  return listenToStream(stream, context, listener, now, microphoneFailure, { stopsWhenHidden: true });
}

/**
 * This browser's audio, shared through the browser's picker (getDisplayMedia asks for
 * video too: Chromium refuses audio alone). The video track is stopped at once; a share without
 * sound (a window, or "share audio" left unticked) fails as "no tab audio". `context` as for the
 * microphone.
 */
export async function openTabAudio(
  context: AudioContext,
  listener: CaptureListener,
  now: () => number = Date.now,
): Promise<Microphone> {
  const mediaDevices = globalThis.navigator?.mediaDevices;
  if (!mediaDevices || !canShareTabAudio(mediaDevices)) {
    closeAudioContext(context);
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
    closeAudioContext(context);
    throw tabAudioFailure(error);
  }
  for (const track of stream.getVideoTracks()) track.stop();
  if (stream.getAudioTracks().length === 0) {
    for (const track of stream.getTracks()) track.stop();
    closeAudioContext(context);
    throw RecognitionFailure.recording("notabaudio", "The shared surface has no audio track");
  }
  // The person may well look at the tab they share: this page being hidden stops nothing.
  return listenToStream(new MediaStream(stream.getAudioTracks()), context, listener, now, tabAudioFailure, {
    stopsWhenHidden: false,
  });
}

/** Mono buffers of a stream through a ScriptProcessorNode with the spec's buffer size. */
async function listenToStream(
  stream: MediaStream,
  context: AudioContext,
  listener: CaptureListener,
  now: () => number,
  failure: (error: unknown) => RecognitionFailure,
  options: { stopsWhenHidden: boolean },
): Promise<Microphone> {
  try {
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
      listener.samples(new Float32Array(input));
    };
    source.connect(processor);
    // The processor runs only when connected; it writes nothing, so nothing is heard.
    processor.connect(context.destination);
    // Started in the tap; iOS may have suspended it again while the microphone opened.
    if (context.state !== "running") await context.resume();
    function stop() {
      if (stopped) return;
      stopped = true;
      unwatch();
      processor.onaudioprocess = null;
      source.disconnect();
      processor.disconnect();
      for (const track of stream.getTracks()) track.stop();
      closeAudioContext(context);
    }
    const unwatch = watchInterruptions(stream, context, options, (cause) => {
      if (stopped) return;
      stop();
      listener.interrupted(cause);
    });
    return { sampleRate: rate, startedAt: () => first, stop };
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    closeAudioContext(context);
    throw failure(error);
  }
}

/**
 * What ends listening without the person asking: the page hidden (where `stopsWhenHidden`), a
 * track that ends (the microphone unplugged, its permission revoked, a tab's sharing stopped) and
 * an AudioContext that stops running (iOS interrupts it for a call or the lock screen). Returns
 * the function that stops watching.
 */
function watchInterruptions(
  stream: MediaStream,
  context: AudioContext,
  options: { stopsWhenHidden: boolean },
  interrupted: (failure: RecognitionFailure) => void,
): () => void {
  const hidden = () => document.visibilityState === "hidden";
  const onVisibility = () => {
    if (hidden()) interrupted(RecognitionFailure.recording("background"));
  };
  const onEnded = () => interrupted(RecognitionFailure.recording("inputended", "The track ended"));
  const onState = () => {
    if (context.state === "running") return;
    interrupted(
      hidden()
        ? RecognitionFailure.recording("background")
        : RecognitionFailure.recording("inputended", `The AudioContext is ${context.state}`),
    );
  };
  const tracks = stream.getAudioTracks();
  for (const track of tracks) track.addEventListener("ended", onEnded);
  context.addEventListener("statechange", onState);
  if (options.stopsWhenHidden) document.addEventListener("visibilitychange", onVisibility);
  // Hidden while the permission was asked: nothing to hear from here on.
  if (options.stopsWhenHidden) queueMicrotask(onVisibility);
  return () => {
    for (const track of tracks) track.removeEventListener("ended", onEnded);
    context.removeEventListener("statechange", onState);
    document.removeEventListener("visibilitychange", onVisibility);
  };
}

/** Spec 002 §4: "start pauses page videos" (and any other playing media, which would be heard). */
export function pausePageMedia(root: Pick<Document, "querySelectorAll">): void {
  for (const media of root.querySelectorAll<HTMLMediaElement>("video, audio")) {
    if (!media.paused) media.pause();
  }
}
