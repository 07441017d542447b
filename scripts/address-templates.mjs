// The spec's addresses are built in one module, rules/addresses.ts (docs/decisions/058-addresses.md):
// there every path segment is encoded once, a key is one rule and a storefront another. A lint
// step (npm run lint): a template literal that starts with a page or services prefix (`/track/`,
// `/artist/`, `/album/`, `/playlist/`, `/event/`, `/services/`) and has a `${…}` in it is an
// address built by hand, and is printed as file:line. A template without one and a plain string
// ("/services/health", the proxy's prefix lists) are constants, not builds, and pass.
//
// Read: every TypeScript and JavaScript file git knows of (tracked or new), but
// - rules/addresses.ts, the module itself;
// - tests/ and bench/: they test and measure the site from outside, as a browser, a crawler or the
//   app asks it, so they write the addresses they ask for themselves (an address the site builds
//   wrongly must not be checked against the same builder);
// - node_modules/, build/, public/ (not ours, or generated).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");

const prefixes = ["/track/", "/artist/", "/album/", "/playlist/", "/event/", "/services/"];
const addressModule = "rules/addresses.ts";
const outsideFolders = ["tests/", "bench/", "node_modules/", "build/", "public/"];
const sourceFile = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Tracked files and new ones not ignored: a file about to be committed is checked too. */
function repositoryFiles() {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
  });
  return [...new Set(listed.split("\0").filter((file) => file !== ""))].sort();
}

function scriptKindOf(file) {
  if (file.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (file.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** Each template literal of `text` that starts with an address prefix and substitutes a value, by line. */
function handBuiltAddresses(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKindOf(file));
  const found = [];
  const visit = (node) => {
    if (ts.isTemplateExpression(node) && prefixes.some((prefix) => node.head.text.startsWith(prefix))) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ line: line + 1, text: node.getText(source).split("\n")[0] });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const offences = [];
for (const file of repositoryFiles()) {
  if (file === addressModule || !sourceFile.test(file) || file.endsWith(".d.ts")) continue;
  // A unit test beside its module (x.test.ts) is of tests/ too.
  if (outsideFolders.some((folder) => file.startsWith(folder)) || /\.test\.[cm]?[jt]sx?$/.test(file))
    continue;
  const absolute = path.join(root, file);
  if (!existsSync(absolute)) continue; // deleted in the work tree, not yet in the index
  for (const { line, text } of handBuiltAddresses(file, readFileSync(absolute, "utf8"))) {
    offences.push(`${file}:${line}: ${text}`);
  }
}

if (offences.length > 0) {
  console.error(
    `${offences.length} address(es) built by hand; build them with ${addressModule} (each segment encoded once):`,
  );
  for (const offence of offences) console.error(`  ${offence}`);
  process.exit(1);
}
