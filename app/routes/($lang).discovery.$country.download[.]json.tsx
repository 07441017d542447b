import { chartDownloadLoader } from "~/data/charts.server";

// The chart as a file to download (see chartDownload).
export const loader = chartDownloadLoader("json");
