import path from "node:path";
import { chartRecomputeMinutes } from "#rules/chart-schedule.ts";
import { removeSnapshot, root, siteWorkerName, snapshotSite, startSite } from "./site";

/**
 * `npm start`'s server (decision 028, finding 3): the production build in workerd through Miniflare's
 * API, as the bench serves it, with wrangler's local D1 (what scripts/ensure-catalog.mjs loaded).
 * wrangler dev's proxy reset its connections and exited under a burst of 200; this has no proxy
 * in front of workerd. `npm run dev` keeps wrangler dev, with its reload, for development.
 */
const port = Number(process.env.PORT ?? 8787);
const siteOrigin = process.env.SITE_ORIGIN ?? `http://127.0.0.1:${port}`;
const snapshot = snapshotSite();
const site = await startSite(snapshot, {
  port,
  persistTo: path.join(root, ".wrangler/state"),
  // The site's origin (every absolute URL and origin check, decision 030): 127.0.0.1, or SITE_ORIGIN to
  // serve it as http://localhost:PORT (WebAuthn needs a host name). Mail goes to /dev/outbox.
  vars: { SITE_ORIGIN: siteOrigin },
});
// Miniflare runs no Cron Trigger by itself: the charts' recompute on the same ten-minute marks as
// wrangler.toml's cron, through the worker's scheduled handler.
const period = chartRecomputeMinutes * 60_000;
const worker = await site.miniflare.getWorker(siteWorkerName);
const runSchedule = () => {
  const scheduledTime = new Date(Math.round(Date.now() / period) * period);
  worker.scheduled({ cron: `*/${chartRecomputeMinutes} * * * *`, scheduledTime }).catch((error: unknown) => {
    console.error("scheduled:", error);
  });
};
setTimeout(
  () => {
    runSchedule();
    setInterval(runSchedule, period);
  },
  period - (Date.now() % period),
);
console.log(`\nTunewave on ${siteOrigin} (workerd listening on ${site.url})\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    site.close().finally(() => {
      removeSnapshot(snapshot);
      process.exit(0);
    });
  });
}
