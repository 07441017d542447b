/**
 * `npm run bench:memory`: the bench's memory section alone (issue 28 finding 8), on the build in
 * build/ (after `npm run build`), for a quicker look than the whole `npm run bench`.
 * `npm run bench:memory -- --no-heap-limit`: as local workerd runs, without production's heap limit.
 */

import { removeSnapshot, snapshotSite } from "../scripts/site";
import { formatTable, type Row } from "./budgets";
import { measureMemory } from "./memory";

const snapshot = snapshotSite();
try {
  const rows: Row[] = [];
  const heapLimit = !process.argv.slice(2).includes("--no-heap-limit");
  const measurement = await measureMemory(snapshot, rows, { heapLimit });
  console.log(formatTable(rows));
  console.error(JSON.stringify(measurement));
} finally {
  removeSnapshot(snapshot);
}
