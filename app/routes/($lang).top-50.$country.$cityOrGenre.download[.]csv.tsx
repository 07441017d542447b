import { chartDownloadLoader } from "~/data/chart-download.server";

// The chart as a file to download (see chartDownload).
export const loader = chartDownloadLoader("csv");
