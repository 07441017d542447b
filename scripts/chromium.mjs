// Finds Debian's Chromium for the browser tests (scripts/debian-program.mjs).
import { ensureProgram, findProgram } from "./debian-program.mjs";

const chromium = {
  what: "Chromium",
  packageName: "chromium",
  paths: [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"],
  orSet: "CHROME_PATH",
};

export function findChromium() {
  return findProgram(chromium);
}

export function ensureChromium() {
  return ensureProgram(chromium);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureChromium());
