import { SiteError } from "#rules/errors.ts";

type Queued = { json: string; responseType: string | undefined };

export function messageOfError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The page's messages to the app (spec 000 §4): handed to the host object at once once the bridge
 * is native (about-bridge arrived), queued in order until then, at most `limit` of them (the
 * oldest is dropped). A request whose message cannot go fails through `fail`.
 */
export function createOutbox({
  host,
  limit,
  log,
  fail,
}: {
  /** The app's host object; none on the website, where nothing is sent. */
  host: { post(json: string): void } | undefined;
  limit: number;
  log: (message: string, detail?: unknown) => void;
  fail: (responseType: string, error: SiteError) => void;
}) {
  const queue: Queued[] = [];
  let native = false;

  /** Hands a message to the host now; `responseType` names the request it carries, if any. */
  function post(json: string, responseType: string | undefined): void {
    if (!host) return;
    try {
      host.post(json);
    } catch (error) {
      log("bridge: the app host refused a message", error);
      if (responseType !== undefined)
        fail(responseType, new SiteError("serviceerror", messageOfError(error)));
    }
  }

  return {
    post,
    /** Sends a message once the bridge is native: now, or from the queue. */
    send(json: string, responseType: string | undefined): void {
      if (native) {
        post(json, responseType);
        return;
      }
      queue.push({ json, responseType });
      if (queue.length > limit) {
        const dropped = queue.shift();
        log("bridge: queue full before about-bridge, oldest message dropped", dropped?.json);
        if (dropped?.responseType !== undefined) {
          fail(dropped.responseType, new SiteError("limitexceeded", "Bridge queue full before about-bridge"));
        }
      }
    },
    /** The bridge is native: the queue goes out in order, later messages at once. */
    open(): void {
      native = true;
      for (let next = queue.shift(); next !== undefined; next = queue.shift())
        post(next.json, next.responseType);
    },
    clear(): void {
      queue.length = 0;
    },
  };
}
