import artist from "../app/styles/artist.css";
import charts from "../app/styles/charts.css";
import site from "../app/styles/site.css";
import track from "../app/styles/track.css";
import amp from "./amp.css";

/**
 * Every stylesheet an AMP page may inline, by name, with the file it comes from. In the Worker a
 * CSS import is the file's text (wrangler.toml `[[rules]] type = "Text"`); plain Node does not
 * read CSS imports, so Node tests read the same files from disk by these paths.
 */
export const stylesheetFiles = {
  site: "app/styles/site.css",
  amp: "amp/amp.css",
  track: "app/styles/track.css",
  charts: "app/styles/charts.css",
  artist: "app/styles/artist.css",
} as const;

export type StylesheetName = keyof typeof stylesheetFiles;

export type Stylesheets = Readonly<Record<StylesheetName, string>>;

/** The CSS texts as the Worker bundles them. */
export const bundledStylesheets: Stylesheets = { site, amp, track, charts, artist };
