// Finds Debian's Chromium for the browser tests; installs it with apt when missing and running as
// root, and otherwise says exactly what to install. Never downloads a browser build of its own.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(
  Boolean,
);

export function findChromium() {
  return candidates.find((candidate) => existsSync(candidate));
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (process.getuid?.() === 0) {
    console.log("Chromium is missing: installing Debian's chromium with apt-get …");
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error(
    "Chromium is needed for the browser tests. Install Debian's package: sudo apt-get update && sudo apt-get install -y chromium (or set CHROME_PATH).",
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureChromium());
