import path from "node:path";
import { removeSnapshot, root, siteWorkerName, snapshotSite, startSite } from "./site";

/**
 * `npm run charts` (decision 032): the charts recomputed now, in the local database `npm start` serves
 * (wrangler's local state), by the worker's own scheduled handler as the Cron Trigger runs it. A
 * site of its own on that state, so it works whether `npm start` runs or not and opens no door
 * into it (Miniflare's /cdn-cgi/handler/scheduled reaches the static-assets router, not the
 * worker, and answers "exception"). A running `npm start` keeps the chart answers it has until
 * the next ten-minute mark, as the deployed edge does after a run.
 */
const snapshot = snapshotSite();
const site = await startSite(snapshot, {
  persistTo: path.join(root, ".wrangler/state"),
  vars: { SITE_ORIGIN: "http://127.0.0.1" },
});
try {
  const worker = await site.miniflare.getWorker(siteWorkerName);
  const { outcome } = await worker.scheduled({ cron: "*/10 * * * *", scheduledTime: new Date() });
  console.log(`charts recompute: ${outcome}`);
  process.exitCode = outcome === "ok" ? 0 : 1;
} finally {
  await site.close();
  removeSnapshot(snapshot);
}
