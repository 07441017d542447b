// The npm registry mirror of these machines carries only this platform's binaries, so `npm
// install` leaves other platforms' optional packages (@esbuild/darwin-arm64, @biomejs/cli-win32-x64,
// …) out of package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds the
// missing optional entries as they would be with the full registry; npm ci skips them (optional,
// not installable here). Run after changing dependencies: `npm install && node scripts/fix-lock.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const path = process.argv[2] ?? "package-lock.json";
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;
let added = 0;
for (const [key, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const version = spec.replace(/^[\^~=]/, "");
    const nested = `${key === "" ? "" : `${key}/`}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]?.version === version) continue;
    packages[packages[hoisted] ? nested : hoisted] = { version, optional: true };
    added++;
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`fix-lock: ${added} optional entries added`);
