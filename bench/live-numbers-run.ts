/**
 * `npm run bench:live`: the bench's live-numbers section alone (decision 032), on the build in build/
 * (after `npm run build`): identification events and beacons through the queues, in bursts.
 */
import { removeSnapshot, snapshotSite } from "#scripts/site.ts";
import { formatTable, type Row } from "./budgets";
import { measureLiveNumbers } from "./live-numbers";

const snapshot = snapshotSite();
try {
  const rows: Row[] = [];
  const measurement = await measureLiveNumbers(snapshot, rows);
  console.log(formatTable(rows));
  console.error(JSON.stringify(measurement));
} finally {
  removeSnapshot(snapshot);
}
