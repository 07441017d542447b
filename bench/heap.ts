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
  /**
   * V8's sampling heap profiler from now until `stop`, counting the objects collected meanwhile
   * too (garbage is what makes a high point): the bytes allocated by each function, the most first.
   */
  sampleAllocations: () => Promise<{ stop: () => Promise<AllocationSite[]> }>;
  close: () => void;
};

export type AllocationSite = { site: string; mb: number };

type SamplingNode = {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
};

const megabyte = 1024 * 1024;

/** The heap of a worker's isolate (the site's unless named). */
export async function inspectHeap(inspectorPort: number, workerName?: string): Promise<HeapInspector> {
  const inspector = await connectInspector(inspectorPort, workerName);
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
    sampleAllocations: async () => {
      await inspector.call("HeapProfiler.startSampling", {
        samplingInterval: 64 * 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      return {
        stop: async () => {
          const { profile } = await inspector.call<{ profile: { head: SamplingNode } }>(
            "HeapProfiler.stopSampling",
          );
          const bytes = new Map<string, number>();
          const walk = (node: SamplingNode, caller: string) => {
            const { functionName, url, lineNumber } = node.callFrame;
            const name = `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
            const site = `${name} ← ${caller}`;
            if (node.selfSize > 0) bytes.set(site, (bytes.get(site) ?? 0) + node.selfSize);
            for (const child of node.children) walk(child, name);
          };
          walk(profile.head, "");
          return [...bytes]
            .sort((a, b) => b[1] - a[1])
            .map(([site, size]) => ({ site, mb: round(size / megabyte, 1) }));
        },
      };
    },
    close: inspector.close,
  };
}
