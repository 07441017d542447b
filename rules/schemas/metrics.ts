import * as v from "valibot";

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** `GET /services/metrics/received?since=…`: what the metrics and log sinks stored since then. */
export const receivedBeaconsSchema = v.object({
  since: count,
  total: count,
  metrics: count,
  log: count,
  routes: v.record(v.string(), count),
});

export type ReceivedBeacons = v.InferOutput<typeof receivedBeaconsSchema>;
