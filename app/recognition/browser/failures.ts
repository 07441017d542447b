import * as v from "valibot";
import { safeJson } from "#app/shell/browser/request.ts";
import { SiteError } from "#rules/errors.ts";
import { serviceErrorSchema } from "#rules/schemas/common.ts";

/**
 * Why a recognition stopped early (spec 002 §8): a recording error (microphone denied, no
 * microphone, worker failure...) or a match service error. Each carries the statistic the spec
 * asks for and decides the screen shown.
 */
export type FailureKind =
  | "microphonedenied"
  | "nomicrophone"
  | "microphoneunavailable"
  | "unsupported"
  | "insecure"
  | "background"
  | "inputended"
  | "worker"
  | "tabdenied"
  | "notabaudio"
  | "fileunreadable"
  | "fileempty"
  | "filetoolong"
  | "service";

/** The description of each recording error, as the statistic reads it once lowercased. */
const recordingDescriptions = {
  microphonedenied: "Microphone denied",
  nomicrophone: "No microphone",
  microphoneunavailable: "Microphone unavailable",
  unsupported: "Audio unsupported",
  insecure: "Insecure context",
  // Listening stopped before an answer: the page went to the background, or the input ended (the
  // microphone taken by a call, turned off or its permission revoked; a tab's sharing stopped).
  background: "Page hidden",
  inputended: "Input ended",
  worker: "Worker failure",
  // This browser's audio (a shared tab) and a file.
  tabdenied: "Tab audio denied",
  notabaudio: "No tab audio",
  fileunreadable: "File unreadable",
  fileempty: "File empty",
  filetoolong: "File too long",
} as const satisfies Partial<Record<FailureKind, string>>;

/** Spec 002 §8: "Recording errors (mic denied, worker failure): statistic with a lowercased, space-free description". */
export function recordingStatistic(description: string): string {
  return description.toLowerCase().replace(/\s+/g, "");
}

/** Spec 002 §8: "Match service errors: statistic 'service-error:{message}'". */
export function serviceStatistic(message: string): string {
  return `service-error:${message}`;
}

export class RecognitionFailure extends Error {
  readonly kind: FailureKind;
  readonly statistic: string;

  private constructor(kind: FailureKind, statistic: string, detail: string) {
    super(detail);
    this.name = "RecognitionFailure";
    this.kind = kind;
    this.statistic = statistic;
  }

  static recording(kind: keyof typeof recordingDescriptions, detail?: string): RecognitionFailure {
    const description = recordingDescriptions[kind];
    return new RecognitionFailure(kind, recordingStatistic(description), detail ?? description);
  }

  static worker(detail: string): RecognitionFailure {
    return RecognitionFailure.recording("worker", `Worker failure: ${detail}`);
  }

  /** A failed match request: the statistic carries the service's error type, else the failure's. */
  static service(error: unknown): RecognitionFailure {
    if (error instanceof RecognitionFailure) return error;
    let message = "unknown";
    if (error instanceof SiteError) {
      const body = v.safeParse(serviceErrorSchema, safeJson(error.body));
      message = body.success ? body.output.error : error.status ? `${error.type}${error.status}` : error.type;
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new RecognitionFailure("service", serviceStatistic(message), detail);
  }
}

/**
 * A getUserMedia or Web Audio failure as a recording error (DOMException names of the Media
 * Capture spec): refused permission, no device, a device that cannot be opened, no support.
 */
export function microphoneFailure(error: unknown): RecognitionFailure {
  return captureFailure(error, "microphonedenied");
}

/**
 * A getDisplayMedia failure: the visitor closing the picker or refusing is NotAllowedError, like a
 * refused microphone; the rest reads as for the microphone.
 */
export function tabAudioFailure(error: unknown): RecognitionFailure {
  return captureFailure(error, "tabdenied");
}

function captureFailure(error: unknown, denied: "microphonedenied" | "tabdenied"): RecognitionFailure {
  if (error instanceof RecognitionFailure) return error;
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  switch (name) {
    case "NotAllowedError":
    case "PermissionDeniedError":
    case "SecurityError":
      return RecognitionFailure.recording(denied, detail);
    case "NotFoundError":
    case "DevicesNotFoundError":
    case "OverconstrainedError":
      return RecognitionFailure.recording("nomicrophone", detail);
    case "NotSupportedError":
    case "TypeError":
      return RecognitionFailure.recording("unsupported", detail);
    default:
      return RecognitionFailure.recording("microphoneunavailable", detail);
  }
}
