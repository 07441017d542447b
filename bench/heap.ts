import { connectInspector } from "./inspector";
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

export async function inspectHeap(inspectorPort: number): Promise<HeapInspector> {
  const inspector = await connectInspector(inspectorPort);
  const usage = async (): Promise<HeapUsage> => {
    const result = await inspector.call<Record<string, number>>("Runtime.getHeapUsage");
    return {
      usedMb: round((result.usedSize ?? Number.NaN) / megabyte, 1),
      totalMb: round((result.totalSize ?? Number.NaN) / megabyte, 1),
    };
  };
  return {
    usage,
    afterCollection: async () => {
      await inspector.call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      return usage();
    },
    close: inspector.close,
  };
}
