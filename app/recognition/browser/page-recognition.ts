import type { OfflineTexts } from "#app/offline/browser/kept-recordings.ts";
import type { CaptureOptions } from "#app/recognition/capture-options.ts";
import type { SiteRuntime } from "#app/shell/browser/runtime.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { hasLabelledAudioInput, openMicrophone, openTabAudio, pausePageMedia } from "./capture";
import { decodeRecognitionFile } from "./file-audio";
import { lookupTrack, requestMatch, requestReturnSig } from "./match-service";
import { type CapturedCheckpoint, createRecognition, type RecognitionScreen } from "./session";
import { createSignatureWorker, type WorkerLike } from "./signature-worker-client";
import { signatureWorkerUrl } from "./worker-asset.generated";

/**
 * A recognition on a page, from the browser's parts (microphone, signature worker, match service).
 * Loaded on demand at the first press of a listen button (spec 002 §4 "Scripts loaded on demand:
 * … a tag client worker"), so pages with the button do not carry the recognition code.
 */
export function createPageRecognition(options: {
  lang: LanguageKey;
  country: string;
  screenname: string;
  capture: CaptureOptions;
  runtime: () => SiteRuntime | undefined;
  navigate: (href: string, state: unknown) => void;
  onScreen: (screen: RecognitionScreen) => void;
  onCapture: (captured: CapturedCheckpoint) => void;
  /** What the announcement of a recording kept offline will say (decision 057). */
  offlineTexts: OfflineTexts;
}) {
  const { lang, country, capture, runtime } = options;
  runtime()?.heardOffline.prepare();
  return createRecognition({
    lang,
    country,
    screenname: options.screenname,
    audioCapture: capture.audioCapture,
    hasLabelledAudioInput: () => hasLabelledAudioInput(navigator.mediaDevices),
    openMicrophone: (context, listener) => openMicrophone(capture, context, listener),
    openTabAudio: (context, listener) => openTabAudio(context, listener),
    decodeFile: (file) => decodeRecognitionFile(file),
    createSignatureWorker: () =>
      createSignatureWorker(() => new Worker(signatureWorkerUrl) as unknown as WorkerLike),
    match: (body, signal) => requestMatch(body, { signal }),
    returnSig: (body, signal) => requestReturnSig(body, { signal }),
    lookupTrack: (trackId, signal) => lookupTrack({ lang, country, trackId }, { signal }),
    get storage() {
      return runtime()?.storage;
    },
    sendBeacon: (params) => void runtime()?.beacons.send(params),
    navigate: options.navigate,
    currentPath: () => window.location.pathname,
    pauseMedia: () => pausePageMedia(document),
    now: Date.now,
    randomId: () => crypto.randomUUID(),
    onScreen: options.onScreen,
    onCapture: options.onCapture,
    // Decision 057: heard offline, identified later.
    keepForLater: (recording) =>
      runtime()?.heardOffline.keep({ ...recording, texts: options.offlineTexts }) ?? Promise.resolve(false),
    isOnline: () => navigator.onLine,
  });
}
