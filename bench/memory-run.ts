/**
 * `npm run bench:memory`: the bench's memory section alone (decision 028, finding 8), on the build in
 * build/ (after `npm run build`), for a quicker look than the whole `npm run bench`.
 * `npm run bench:memory -- --no-heap-limit`: as local workerd runs, without production's heap limit.
 * `npm run bench:memory -- --renders=100 --matches=0`: the load split, to see which part makes the peak.
 * `--sample` adds each measured round's allocations by function, garbage included (V8's sampling
 * heap profiler), to the JSON written to stderr.
 */

import { removeSnapshot, snapshotSite } from "#scripts/site.ts";
import { formatTable, type Row } from "./budgets";
import { measureMemory } from "./memory";

const snapshot = snapshotSite();
try {
  const rows: Row[] = [];
  const args = process.argv.slice(2);
  const heapLimit = !args.includes("--no-heap-limit");
  const count = (name: string) => {
    const value = args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
    return value === undefined ? undefined : Number(value);
  };
  const measurement = await measureMemory(snapshot, rows, {
    heapLimit,
    renders: count("renders"),
    matches: count("matches"),
    sample: args.includes("--sample"),
  });
  console.log(formatTable(rows));
  console.error(JSON.stringify(measurement));
} finally {
  removeSnapshot(snapshot);
}
