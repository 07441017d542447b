// The map a newcomer holds stays true, as a lint step (npm run lint). It fails, printing file:line
// where it can, when:
// - two decision records share a number, or a file in docs/decisions/ is not `NNN-title.md`;
// - a record is missing from docs/decisions/README.md, the list of them;
// - a citation names a record or a note that does not exist: a path `docs/decisions/NNN…` or
//   `docs/notes/…` anywhere in the repository, the words "decision NNN" or "decisions NNN and MMM",
//   or a relative link of a document under docs/ or of the README;
// - the README's folder table does not list exactly the repository's top-level folders, or the
//   folders among them that hold code are not those of docs/architecture.md's import table (and of
//   .dependency-cruiser.cjs, which enforces it);
// - the README or a document under docs/ points outside the repository (`../shared`, `/work/…`):
//   the repository is all a reader has.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const decisionsFolder = "docs/decisions";
const problems = [];
const problem = (where, message) => problems.push(`${where}: ${message}`);

/** Tracked files and new ones not ignored, as paths from the root. */
function repositoryFiles() {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
  });
  return [...new Set(listed.split("\0").filter((file) => file !== ""))]
    .filter((file) => existsSync(path.join(root, file)))
    .sort();
}

/** A text file's lines; null for a binary one (audio, images) or a generated lock file. */
function linesOf(file) {
  if (file === "package-lock.json") return null;
  const bytes = readFileSync(path.join(root, file));
  return bytes.includes(0) ? null : bytes.toString("utf8").split("\n");
}

const files = repositoryFiles();

// Decision records: one number each, every one listed.
const records = new Map();
for (const name of readdirSync(path.join(root, decisionsFolder)).sort()) {
  if (name === "README.md") continue;
  const number = /^(\d{3})-[a-z0-9-]+\.md$/.exec(name)?.[1];
  if (!number) {
    problem(
      `${decisionsFolder}/${name}`,
      "a decision record is named NNN-title.md (three digits, lower case)",
    );
    continue;
  }
  const taken = records.get(number);
  if (taken) {
    problem(`${decisionsFolder}/${name}`, `decision ${number} is also ${taken[0]}: give one a free number`);
    taken.push(name);
  } else records.set(number, [name]);
}
const listPath = `${decisionsFolder}/README.md`;
const list = existsSync(path.join(root, listPath)) ? readFileSync(path.join(root, listPath), "utf8") : "";
for (const name of [...records.values()].flat())
  if (!list.includes(`(${name})`)) problem(listPath, `${name} is not in the list of decisions`);

// Citations anywhere in the repository.
const decisionPath = /docs\/decisions\/(\d{3})([a-z0-9-]*(?:\.md)?)/g;
const notePath = /docs\/notes\/([\w.-]+\.md)/g;
const decisionWords = /\bdecisions?\s+(\d{3}(?:(?:,\s*|\s+and\s+|\s*[–-]\s*)\d{3})*)(?![\d-])/gi;
for (const file of files) {
  const lines = linesOf(file);
  if (!lines) continue;
  lines.forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    for (const [, number, rest] of line.matchAll(decisionPath)) {
      const names = records.get(number);
      if (!names) problem(where, `docs/decisions/${number}${rest}: no decision ${number}`);
      else if (rest.endsWith(".md") && !names.includes(`${number}${rest}`))
        problem(where, `docs/decisions/${number}${rest} does not exist; decision ${number} is ${names[0]}`);
      else if (!rest.endsWith(".md") && !names.some((name) => name.startsWith(`${number}${rest}`)))
        problem(where, `docs/decisions/${number}${rest} names no record; decision ${number} is ${names[0]}`);
    }
    for (const [, name] of line.matchAll(notePath))
      if (!existsSync(path.join(root, "docs/notes", name)))
        problem(where, `docs/notes/${name} does not exist`);
    for (const [, numbers] of line.matchAll(decisionWords))
      for (const number of numbers.match(/\d{3}/g))
        if (!records.has(number)) problem(where, `decision ${number} does not exist`);
  });
}

// Relative links of the documents: [text](target), resolved from the document's folder.
const documents = files.filter(
  (file) => file === "README.md" || (file.startsWith("docs/") && file.endsWith(".md")),
);
const link = /\]\(([^)\s]+)\)/g;
for (const file of documents) {
  readFileSync(path.join(root, file), "utf8")
    .split("\n")
    .forEach((line, index) => {
      for (const [, target] of line.matchAll(link)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue; // a URL, an anchor
        const linked = path.join(path.dirname(path.join(root, file)), decodeURI(target.split("#")[0]));
        if (!existsSync(linked)) problem(`${file}:${index + 1}`, `the link ${target} leads nowhere`);
      }
    });
}

// Nothing outside the repository.
const outside = /\.\.\/shared\b|\/work\/shared\b/;
for (const file of documents)
  readFileSync(path.join(root, file), "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (outside.test(line))
        problem(
          `${file}:${index + 1}`,
          "points outside the repository: name the document, or copy it into docs/",
        );
    });

// The folder tables.
/** The first column's `name/` entries of the table under `heading` in a markdown file. */
function tableFolders(file, heading) {
  const lines = readFileSync(path.join(root, file), "utf8").split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) {
    problem(file, `no "${heading}" section`);
    return [];
  }
  const folders = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("#")) break;
    const cell = /^\|\s*`([^`]+)`\s*\|/.exec(line)?.[1];
    if (cell) folders.push(cell);
  }
  return folders;
}
const topLevel = [
  ...new Set(files.filter((file) => file.includes("/")).map((file) => file.split("/")[0])),
].sort();
const holdsCode = (folder) =>
  files.some((file) => file.startsWith(`${folder}/`) && /\.(ts|tsx|js|mjs|cjs)$/.test(file));
const readmeFolders = tableFolders("README.md", "## Folders");
const readmeNames = readmeFolders.map((cell) => cell.replace(/\/$/, ""));
for (const cell of readmeFolders)
  if (!cell.endsWith("/") || cell.slice(0, -1).includes("/"))
    problem("README.md", `the folder table lists \`${cell}\`: top-level folders only, written \`name/\``);
for (const folder of topLevel)
  if (!readmeNames.includes(folder)) problem("README.md", `the folder table lacks \`${folder}/\``);
for (const folder of readmeNames)
  if (!topLevel.includes(folder))
    problem("README.md", `the folder table lists \`${folder}/\`, which the repository does not have`);
const codeFolders = topLevel.filter(holdsCode);
const importTable = tableFolders("docs/architecture.md", "## The import table")
  .filter((cell) => /^[^/*]+\/$/.test(cell))
  .map((cell) => cell.slice(0, -1));
for (const folder of codeFolders)
  if (!importTable.includes(folder))
    problem("docs/architecture.md", `\`${folder}/\` holds code but is not in the import table`);
for (const folder of importTable)
  if (!codeFolders.includes(folder))
    problem(
      "docs/architecture.md",
      `the import table lists \`${folder}/\`, which holds no code of the repository`,
    );
const cruiser = readFileSync(path.join(root, ".dependency-cruiser.cjs"), "utf8");
const ours = /const ours = "\^\(([^)]+)\)\/"/.exec(cruiser)?.[1]?.split("|") ?? [];
for (const folder of importTable)
  if (!ours.includes(folder))
    problem(".dependency-cruiser.cjs", `\`ours\` does not name \`${folder}/\` of the import table`);
for (const folder of ours)
  if (!importTable.includes(folder))
    problem(".dependency-cruiser.cjs", `\`ours\` names \`${folder}/\`, which the import table does not`);

if (problems.length > 0) {
  console.error(`${problems.length} problem(s) in the documentation's map:`);
  for (const line of problems) console.error(`  ${line}`);
  process.exit(1);
}
