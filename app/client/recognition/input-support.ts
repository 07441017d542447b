/**
 * Issue 46: what the page needs to know about the other inputs before recognition's code loads
 * (app/client/recognition/capture.ts, file-audio.ts): whether a tab's sound can be shared, and the
 * limits of a file, which its messages name.
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
 * Browsers that offer getDisplayMedia without audio (Firefox, Safari) lack the constraint that
 * only a tab's audio capture has (`suppressLocalAudioPlayback`, Chromium 109+).
 */
export function canShareTabAudio(mediaDevices: MediaDevices | undefined): boolean {
  if (!mediaDevices?.getDisplayMedia || !("AudioContext" in globalThis)) return false;
  const supported = mediaDevices.getSupportedConstraints() as Record<string, boolean | undefined>;
  return supported.suppressLocalAudioPlayback === true;
}
