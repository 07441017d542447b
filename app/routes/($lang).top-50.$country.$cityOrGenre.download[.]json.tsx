import { chartDownloadLoader } from "#app/charts/chart-download.server.ts";

// The chart as a file to download (see chartDownload).
export const loader = chartDownloadLoader("json");
