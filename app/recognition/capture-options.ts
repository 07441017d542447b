/**
 * The recognition's capture options from the page's address (spec 002 §5, §7): read by the loaders
 * (app/recognition/recognition-panel.server.ts) and used by the browser's capture
 * (app/recognition/browser/capture.ts), so it lives outside the browser model.
 */
export type CaptureOptions = {
  /** Spec 002 §5: "on only when query params ec and ns equal 'true'". */
  echoCancellation: boolean;
  noiseSuppression: boolean;
  /** Spec 002 §7: returnSig "only when query audiocapture=1". */
  audioCapture: boolean;
};

export function captureOptionsOf(search: URLSearchParams): CaptureOptions {
  return {
    echoCancellation: search.get("ec") === "true",
    noiseSuppression: search.get("ns") === "true",
    audioCapture: search.get("audiocapture") === "1",
  };
}
