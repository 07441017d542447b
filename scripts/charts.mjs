// `npm run charts` (issue 43): recompute the charts now on the running local site (`npm start`),
// through Miniflare's scheduled trigger, which only the local server opens.
const port = Number(process.env.PORT ?? 8787);
const response = await fetch(
  `http://127.0.0.1:${port}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/10 * * * *")}`,
);
console.log(`charts recompute: ${response.status} ${await response.text()}`);
process.exit(response.ok ? 0 : 1);
