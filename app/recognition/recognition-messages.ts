import type { FailureKind } from "#app/recognition/browser/failures.ts";
import type { RecognitionInputKind } from "#app/recognition/browser/session.ts";

/**
 * What the recognition screen says when listening cannot start or stopped early (spec 001 §4, 002
 * §2: microphone permission needed, error with Refresh; 000 §8: not supported on the website,
 * "open the link on a mobile device with the newest app"): one row a failure, read by the panel.
 */
export type RecognitionMessage = {
  /** A key of the recognition strings; none: a note of one paragraph, not a panel. */
  heading?: string;
  text: string;
  tone: "notice" | "error";
  /**
   * `listen`: the listen button stays, for another tap; `tryAgain`: back to the ways to listen;
   * `refresh`: the page is reloaded; `none`: nothing this browser can do.
   */
  action: "listen" | "tryAgain" | "refresh" | "none";
  /** The app's store link under it: only where this browser cannot record at all. */
  storeLink: boolean;
};

const panel = (
  heading: string,
  text: string,
  action: RecognitionMessage["action"],
  tone: RecognitionMessage["tone"] = "error",
): RecognitionMessage => ({ heading, text, tone, action, storeLink: false });

export function recognitionMessage(failure: FailureKind, input: RecognitionInputKind): RecognitionMessage {
  switch (failure) {
    case "unsupported":
      return { text: "error.unsupported", tone: "notice", action: "none", storeLink: true };
    case "insecure":
      return { text: "error.insecure", tone: "notice", action: "none", storeLink: false };
    case "microphonedenied":
      return panel("permission.title", "permission.denied", "listen", "notice");
    case "background":
      return panel("interrupted.title", "interrupted.background", "listen", "notice");
    case "inputended":
      return panel(
        "interrupted.title",
        input === "tab" ? "interrupted.tab" : "interrupted.microphone",
        "listen",
        "notice",
      );
    case "nomicrophone":
      return panel("error.title", "error.nomicrophone", "refresh");
    // What the person can put right (another file, sharing the tab's sound): back to the choices.
    case "tabdenied":
    case "notabaudio":
    case "fileunreadable":
    case "fileempty":
    case "filetoolong":
      return panel("error.title", `error.${failure}`, "tryAgain");
    case "microphoneunavailable":
    case "worker":
      return panel("error.title", "error.text", "refresh");
    // Spec 001 §8 "Couldn't find your song right now": the match service failed, which says
    // nothing about the song (a no-match is the service's answer, `noMatch`).
    case "service":
      return panel("error.service", "error.text", "refresh");
  }
}
