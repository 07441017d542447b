/**
 * What the page needs to know about its inputs before recognition's code loads
 * (app/recognition/browser/capture.ts, file-audio.ts): whether the microphone can be recorded at
 * all, the AudioContext a tap starts, whether a tab's sound can be shared, whether a file can be
 * dropped, and the limits of a file, which its messages name.
 */

/**
 * Larger files are refused before decoding: the whole file is read and decoded at once, and a
 * phone has to hold both. 100 MB is a ten-minute CD-quality WAV or hours of compressed audio.
 */
export const FILE_MAX_BYTES = 100 * 1024 * 1024;
/** Longer audio is refused after decoding: a song, a voice memo or a clip, not a whole recording session. */
export const FILE_MAX_SECONDS = 20 * 60;
/** Less than this holds nothing to identify (one signature frame is 0.128 s): read as empty. */
export const FILE_MIN_SECONDS = 1;

/**
 * Whether this browser can record the microphone, known before anything is asked: a page that is
 * not a secure context (http:// anywhere but this machine) has no `navigator.mediaDevices`, and
 * an old browser has no getUserMedia or no Web Audio. A refused permission is known only once
 * asked (RecognitionFailure "microphonedenied").
 */
export type MicrophoneSupport = "supported" | "insecure" | "unsupported";

type AudioContextConstructor = new () => AudioContext;

/** The globals the support checks read (`globalThis` in the browser, a stand-in in tests). */
export type AudioGlobals = {
  isSecureContext?: boolean;
  navigator?: { mediaDevices?: Partial<Pick<MediaDevices, "getUserMedia">> };
  AudioContext?: AudioContextConstructor;
  /** Safari before 14.1. */
  webkitAudioContext?: AudioContextConstructor;
};

export function microphoneSupport(scope: AudioGlobals = globalThis as AudioGlobals): MicrophoneSupport {
  if (scope.isSecureContext === false) return "insecure";
  if (!scope.navigator?.mediaDevices?.getUserMedia || !audioContextOf(scope)) return "unsupported";
  return "supported";
}

function audioContextOf(scope: AudioGlobals): AudioContextConstructor | undefined {
  return scope.AudioContext ?? scope.webkitAudioContext;
}

/**
 * The AudioContext of one recognition, created and resumed in the tap that starts it: iOS Safari
 * starts Web Audio only inside a user gesture, and the microphone's stream arrives after the
 * gesture has ended. At the device's own rate (a stream source at another rate fails in some
 * browsers); the signature worker resamples. Called only where `microphoneSupport` (or
 * `canShareTabAudio`) said yes.
 */
export function audioContextInGesture(): AudioContext {
  const Context = audioContextOf(globalThis as AudioGlobals);
  if (!Context) throw new TypeError("No AudioContext");
  const context = new Context();
  // Asked now, inside the gesture; the promise settles later. A refusal leaves it suspended, and
  // the capture asks again once the stream is open.
  void context.resume().catch(() => {});
  return context;
}

/** Closes a tap's AudioContext once nothing listens through it: browsers allow only a few at once. */
export function closeAudioContext(context: AudioContext): void {
  void context.close().catch(() => {});
}

/**
 * Browsers that offer getDisplayMedia without audio (Firefox, Safari) lack the constraint that
 * only a tab's audio capture has (`suppressLocalAudioPlayback`, Chromium 109+). Phones' browsers
 * have no getDisplayMedia at all.
 */
export function canShareTabAudio(mediaDevices: MediaDevices | undefined): boolean {
  if (!mediaDevices?.getDisplayMedia || !("AudioContext" in globalThis)) return false;
  const supported = mediaDevices.getSupportedConstraints() as Record<string, boolean | undefined>;
  return supported.suppressLocalAudioPlayback === true;
}

/**
 * Whether a file can be dragged onto the page: some pointer is a mouse or a trackpad. A phone or a
 * tablet used by touch alone picks files from the system picker, and is not told to drop one.
 */
export function canDropFiles(): boolean {
  return globalThis.matchMedia?.("(any-pointer: fine)").matches ?? false;
}
