// A program the tests run from a Debian package (Chromium, Java): found at its usual paths; when
// missing and running as root, installed with apt-get; otherwise the error says exactly what to
// install. Never downloads a build of its own.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * @param {{ what: string, packageName: string, paths: (string | undefined)[], orSet?: string }} program
 *   `what` the tests need it for; `paths` where it may be, first found wins; `orSet` the variable
 *   that names another path.
 */
export function findProgram(program) {
  return program.paths.find((candidate) => candidate && existsSync(candidate));
}

/** @param {Parameters<typeof findProgram>[0]} program */
export function ensureProgram(program) {
  const found = findProgram(program);
  if (found) return found;
  if (process.getuid?.() === 0) {
    console.log(`${program.what} is missing: installing Debian's ${program.packageName} with apt-get …`);
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", program.packageName], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    const installed = findProgram(program);
    if (installed) return installed;
  }
  const orSet = program.orSet ? ` (or set ${program.orSet})` : "";
  throw new Error(
    `${program.what} is needed for the browser tests. Install Debian's package: sudo apt-get update && sudo apt-get install -y ${program.packageName}${orSet}.`,
  );
}
