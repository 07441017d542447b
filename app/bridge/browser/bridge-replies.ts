import * as v from "valibot";
import { type BridgeRequestType, bridgeRequestSchemas } from "#app/bridge/bridge-schema.ts";
import { isSiteErrorType, SiteError, type SiteErrorType } from "#rules/errors.ts";
import { propertyOf } from "./app-host";

type Pending = {
  requestType: BridgeRequestType;
  resolve: (data: unknown) => void;
  reject: (error: SiteError) => void;
  timer: ReturnType<typeof setTimeout>;
};

export function issuesOf(issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]): string {
  return v.summarize(issues).replace(/\n/g, "; ");
}

/** The catalogue error an error code from the app stands for. */
function errorOfCode(code: string, data: unknown): SiteError {
  const message = propertyOf(data, "message");
  const type: SiteErrorType =
    code === "malformed" ? "baddata" : isSiteErrorType(code) ? code : "serviceerror";
  return new SiteError(type, typeof message === "string" ? message : `Bridge error ${code}`, {
    args: { code },
  });
}

/**
 * The bridge's requests waiting for the app's reply, by their response type: each settles once,
 * with the reply's data checked against its request's reply schema, an error, or its timeout.
 */
export function createPendingReplies(log: (message: string, detail?: unknown) => void) {
  const pending = new Map<string, Pending>();

  function fail(responseType: string, error: SiteError): void {
    const entry = pending.get(responseType);
    if (!entry) return;
    pending.delete(responseType);
    clearTimeout(entry.timer);
    entry.reject(error);
  }

  return {
    /** A promise of the reply `responseType` to a `requestType` request, failing after `timeoutMs`. */
    expect(requestType: BridgeRequestType, responseType: string, timeoutMs: number): Promise<unknown> {
      return new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            fail(responseType, new SiteError("timeout", `No reply to ${requestType} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        pending.set(responseType, { requestType, resolve, reject, timer });
      });
    },
    fail,
    /** Settles the request `responseType` answers with the app's error or data; false when none waits. */
    settle(responseType: string, error: string | undefined, data: unknown): boolean {
      const entry = pending.get(responseType);
      if (!entry) return false;
      pending.delete(responseType);
      clearTimeout(entry.timer);
      if (error !== undefined) {
        entry.reject(errorOfCode(error, data));
        return true;
      }
      const parsed = v.safeParse(bridgeRequestSchemas[entry.requestType].reply, data);
      if (parsed.success) {
        entry.resolve(parsed.output);
        return true;
      }
      const reason = issuesOf(parsed.issues);
      log(`bridge: malformed ${entry.requestType} reply refused: ${reason}`, data);
      entry.reject(new SiteError("baddata", `Malformed ${entry.requestType} reply: ${reason}`));
      return true;
    },
    failAll(error: SiteError): void {
      for (const responseType of [...pending.keys()]) fail(responseType, error);
    },
  };
}
