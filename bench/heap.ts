import { createServer } from "node:net";
import { siteWorkerName } from "./site";
import { round } from "./stats";

/**
 * The site isolate's JS heap, read through workerd's inspector (Miniflare's `inspectorPort`) with
 * the Chrome DevTools protocol. Needs a global WebSocket (node 20: --experimental-websocket).
 */
export type HeapUsage = {
  /** Live objects and garbage not yet collected, MB. */
  usedMb: number;
  /** What V8 holds for the heap (used and free pages), MB: what the isolate's limit is checked against. */
  totalMb: number;
};

export type HeapInspector = {
  /** The heap as it is, garbage included: cheap, for sampling under load. */
  usage: () => Promise<HeapUsage>;
  /**
   * The heap after a full collection: what is retained. workerd's inspector does not answer
   * `HeapProfiler.collectGarbage`, but a heap snapshot collects first (V8 does, before it walks
   * the heap); the snapshot itself (about 12 MB of JSON) is dropped as it streams.
   */
  afterCollection: () => Promise<HeapUsage>;
  close: () => void;
};

const megabyte = 1024 * 1024;
const answerTimeoutMs = 60_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

export async function inspectHeap(inspectorPort: number): Promise<HeapInspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as {
    id: string;
    webSocketDebuggerUrl: string;
  }[];
  const target = targets.find((entry) => entry.id.endsWith(siteWorkerName));
  if (!target) throw new Error(`no inspector target for ${siteWorkerName}: ${JSON.stringify(targets)}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
    setTimeout(() => reject(new Error("the inspector did not answer")), 10_000);
  });
  let id = 0;
  const waiting = new Map<number, (result: Record<string, number>) => void>();
  socket.addEventListener("message", (event) => {
    // Snapshot chunks and other events have no id: dropped.
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, number> };
    if (message.id === undefined) return;
    waiting.get(message.id)?.(message.result ?? {});
    waiting.delete(message.id);
  });
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, number>>((resolve, reject) => {
      const mine = ++id;
      const timer = setTimeout(
        () => reject(new Error(`the inspector did not answer ${method}`)),
        answerTimeoutMs,
      );
      waiting.set(mine, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      socket.send(JSON.stringify({ id: mine, method, params }));
    });
  const usage = async (): Promise<HeapUsage> => {
    const result = await call("Runtime.getHeapUsage");
    return {
      usedMb: round((result.usedSize ?? Number.NaN) / megabyte, 1),
      totalMb: round((result.totalSize ?? Number.NaN) / megabyte, 1),
    };
  };
  return {
    usage,
    afterCollection: async () => {
      await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      return usage();
    },
    close: () => socket.close(),
  };
}
