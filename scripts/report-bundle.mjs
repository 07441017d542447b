// Prints the size of the worker as wrangler would upload it (raw and gzip), after `remix build`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const outdir = mkdtempSync(path.join(tmpdir(), "tunewave-bundle-"));
try {
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir, "--minify"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const files = readdirSync(outdir).filter((name) => name.endsWith(".js"));
  let raw = 0;
  let gzip = 0;
  for (const name of files) {
    const bytes = readFileSync(path.join(outdir, name));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `worker bundle: ${kib(raw)} raw, ${kib(gzip)} gzip (${files.length} file${files.length === 1 ? "" : "s"})`,
  );
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
