import { SiteError } from "#rules/errors.ts";

/** Why a signature, an index or an input was refused. */
export type SignatureErrorReason =
  | "malformed"
  | "unsupportedversion"
  | "mismatchedparameters"
  | "toolarge"
  | "toodense"
  | "samplerate";

/**
 * A refused signature, index or recording. It is an `invalidparam` of the site's error catalogue
 * (a bad `data` in a match request is the client's fault: 400); `reason` says which check failed.
 */
export class SignatureError extends SiteError {
  readonly reason: SignatureErrorReason;

  constructor(reason: SignatureErrorReason, message: string) {
    super("invalidparam", message, { args: { reason } });
    this.name = "SignatureError";
    this.reason = reason;
  }
}
