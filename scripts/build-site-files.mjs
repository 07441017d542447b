#!/usr/bin/env node
/**
 * What the build makes for phones and crawlers (docs/decisions/018-sitemaps-and-home-screen.md):
 * - the icons, drawn from the brand mark public/favicon.svg (scripts/icons.mjs): the web app
 *   manifest's PNGs under public/icons/, public/apple-touch-icon.png and public/favicon.ico;
 * - worker/build-time.generated.ts, the time of this build, from which security.txt counts its
 *   expiry (a deployed build keeps one expiry; the next build moves it on);
 * - app/information/developer-kit-example.generated.ts, the text of tools/developer-kit/example.ts, which
 *   /developers shows: the page shows the file people run, never a copy of it;
 * - locales/strings.<language>.generated.ts, each language's strings as one JSON text, and
 *   locales/strings.generated.ts, the import of each (scripts/locales-index.mjs).
 * All of them are gitignored: `npm run build` (and so `npm start` and `npm test`) writes them.
 */
import fs from "node:fs";
import path from "node:path";
import { drawIcons } from "./icons.mjs";
import { writeLocaleTexts } from "./locales-index.mjs";

const root = path.resolve(import.meta.dirname, "..");
const started = Date.now();

const mark = fs.readFileSync(path.join(root, "public/favicon.svg"), "utf8");
const icons = await drawIcons(mark);
for (const { file, bytes } of icons) {
  const target = path.join(root, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (!fs.existsSync(target) || !fs.readFileSync(target).equals(bytes)) fs.writeFileSync(target, bytes);
}

const builtAt = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
fs.writeFileSync(
  path.join(root, "worker/build-time.generated.ts"),
  `// Written by scripts/build-site-files.mjs at every build: do not edit, do not commit.
/** When this worker was built (RFC 3339): security.txt's expiry counts from it. */
export const builtAt = "${builtAt}";
`,
);
const example = fs.readFileSync(path.join(root, "tools/developer-kit/example.ts"), "utf8");
fs.writeFileSync(
  path.join(root, "app/information/developer-kit-example.generated.ts"),
  `// Written by scripts/build-site-files.mjs from tools/developer-kit/example.ts: do not edit, do not commit.
export const developerKitExample = ${JSON.stringify(example)};
`,
);
const texts = writeLocaleTexts();
process.stderr.write(
  `site files: ${icons.length} icons from public/favicon.svg, strings of ${texts.languages} languages, built at ${builtAt} (${Date.now() - started} ms)\n`,
);
