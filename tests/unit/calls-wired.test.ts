import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { callerFolders, readSources, repoRoot } from "#tests/site-source.ts";

/**
 * docs/calls.md is the list of the spec's calls (000 §7, 001 §7, 002 §7) and of what the embedded
 * origin serves; this test holds it to the code. A row names its callers as `file:needle` (the
 * file is site code, `callerFolders`, and holds the needle: the path it builds or the helper that
 * builds it), the tests that show it, and the decision record of a departure. A row with neither a
 * caller nor a departure, a caller that does not say what the row claims, a test or a decision
 * that does not exist, a served route with no row, or a row for a route nobody serves: each fails.
 */

const callsDoc = readFileSync(path.join(repoRoot, "docs/calls.md"), "utf8");
const decisions = readdirSync(path.join(repoRoot, "docs/decisions"));
const sources = readSources(callerFolders);

type Row = { table: string; cells: Record<string, string>; line: number };

/** The rows of every table whose header has the given columns, with the table's heading. */
function tableRows(columns: readonly string[]): Row[] {
  const rows: Row[] = [];
  const lines = callsDoc.split("\n");
  let heading = "";
  let header: string[] | undefined;
  lines.forEach((line, index) => {
    if (line.startsWith("#")) heading = line.replace(/^#+\s*/, "");
    if (!line.startsWith("|")) {
      header = undefined;
      return;
    }
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replaceAll("\\|", "|"));
    if (!header) {
      header = cells;
      return;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) return;
    if (columns.every((column, i) => header?.[i] === column))
      rows.push({
        table: heading,
        line: index + 1,
        cells: Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? ""])),
      });
  });
  return rows;
}

const backticked = (cell: string | undefined) =>
  [...(cell ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");

/** A caller that is not there, as a message; undefined when the file holds the needle. */
function missingCaller(item: string): string | undefined {
  const colon = item.indexOf(":");
  if (colon < 0) return `"${item}" is not file:needle`;
  const file = item.slice(0, colon);
  const needle = item.slice(colon + 1);
  const text = sources.get(file);
  if (text === undefined) return `${file} is not site code (${callerFolders.join(", ")})`;
  return text.includes(needle) ? undefined : `${file} does not contain "${needle}"`;
}

function missingDecision(number: string): string | undefined {
  return decisions.some((name) => name.startsWith(`${number}-`)) ? undefined : `no decision record ${number}`;
}

/** Problems of one row: its callers, its tests, its departures, and that it has one or the other. */
function rowProblems(row: Row): string[] {
  const callers = backticked(row.cells.Caller);
  const tests = backticked(row.cells.Test);
  const departures = [
    ...new Set([...(row.cells.Departure ?? "").matchAll(/\b(0\d\d)\b/g)].map((match) => match[1] ?? "")),
  ];
  const problems = [
    ...callers.map(missingCaller),
    ...departures.map(missingDecision),
    ...tests.map((file) => (existsSync(path.join(repoRoot, file)) ? undefined : `${file} does not exist`)),
  ].filter((problem) => problem !== undefined);
  if (callers.length === 0 && departures.length === 0) problems.push("neither a caller nor a departure");
  if (callers.length > 0 && tests.length === 0) problems.push("a caller without a test that shows it");
  return problems.map((problem) => `docs/calls.md:${row.line} (${row.table}): ${problem}`);
}

const specRows = tableRows(["Call", "Page", "Caller", "Test", "Departure"]);
const servedRows = tableRows(["Served", "Caller", "Test", "Departure"]);

/** `const name = "/path"` across the origin and the rules: the prefixes the origin's routes use. */
function pathConstants(): Map<string, string> {
  const constants = new Map<string, string>();
  for (const text of readSources(["origin", "rules"], ["origin/catalog"]).values())
    for (const match of text.matchAll(/const (\w+) = ["`](\/[^"`$]*)["`]/g))
      constants.set(match[1] ?? "", match[2] ?? "");
  return constants;
}

/** Every route the embedded origin registers, as `METHOD /path`, under /services unless on its root. */
function servedRoutes(): string[] {
  const constants = pathConstants();
  const routes: string[] = [];
  for (const [file, text] of readSources(["origin"], ["origin/catalog"])) {
    if (file !== "origin/index.ts" && !file.startsWith("origin/routes/")) continue;
    for (const [, app, method = "", , pattern = ""] of text.matchAll(
      /\b(origin|root)\.(get|post|put|delete|patch)\(\s*(["`])([^"`]+)\3/g,
    )) {
      const route = pattern.replace(
        /\$\{(\w+)\}/g,
        (_, name: string) => constants.get(name) ?? `\${${name}}`,
      );
      routes.push(`${method.toUpperCase()} ${app === "root" ? "" : "/services"}${route}`);
    }
  }
  return routes;
}

describe("docs/calls.md against the code", () => {
  test("it lists the spec's calls in tables the check can read", () => {
    expect(specRows.length).toBeGreaterThan(40);
    expect(servedRows.length).toBeGreaterThan(40);
  });

  test("every spec call has a caller that makes it or a departure that exists, and the tests it names exist", () => {
    expect(specRows.flatMap(rowProblems)).toEqual([]);
  });

  test("everything the origin serves has a page that calls it, or a departure", () => {
    expect(servedRows.flatMap(rowProblems)).toEqual([]);
  });

  test("every route the origin registers has its row, and every row names a registered route", () => {
    const listed = servedRows.flatMap((row) => backticked(row.cells.Served));
    const served = servedRoutes();
    expect(served.filter((route) => !listed.includes(route))).toEqual([]);
    expect(listed.filter((route) => !served.includes(route))).toEqual([]);
  });
});
