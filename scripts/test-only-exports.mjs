// "No runtime module or export is used only by tests" (decision 025), as a lint step (npm run lint).
//
// Runtime code is what the deployed workers and the browser run: app/ rules/ edge/ amp/ worker/ origin/
// recognizer/ signature/ and locales/ (its JSON files are data the build reads), but not origin/catalog/, the catalogue builder that
// `npm run catalog` runs and the worker never imports. Its users are runtime code and the build tooling that
// makes what ships (scripts/, tools/: the catalogue, site files, the recognition worker's bundle).
// tests/ and bench/ are not users: a value the bench alone needs is a seam for measuring, not part
// of the site, exactly like one a test alone needs. So this lists, with the TypeScript compiler:
// - every exported value (function, constant, class) of a runtime module that no runtime or
//   tooling module imports and its own module does not use, but a test or the bench imports
//   (types are erased: a test may name the type of a runtime function's parameter). A value its
//   own module runs is on the page, and exporting it so a unit test drives the rule directly is
//   testing pure logic where it lives, not dead code;
// - every runtime module that no runtime or tooling module imports, but a test or the bench does.
// The framework's entry points and conventions are used by Remix, workerd and wrangler, not by
// imports, and are allowed below by name. A module whose only importer is itself test-only shows
// up once that one is gone (run it again after a fix).
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const runtimeFolders = ["app", "rules", "edge", "amp", "worker", "origin", "recognizer", "signature"];
const toolingFolders = ["scripts", "tools"];

/** Modules something other than an import loads: the server and browser entries, the Web Worker. */
const entryModules = new Set([
  "worker/index.ts",
  "recognizer/index.ts",
  "app/entry.client.tsx",
  "app/entry.server.tsx",
  "app/root.tsx",
  "app/recognition/browser/signature-worker.ts",
]);

/** Route module exports Remix (and our AMP renderer, through `ampView`) read by name. */
const routeConventions = new Set([
  "default",
  "loader",
  "action",
  "meta",
  "links",
  "headers",
  "handle",
  "ErrorBoundary",
  "HydrateFallback",
  "Layout",
  "shouldRevalidate",
  "clientLoader",
  "clientAction",
  "ampView",
]);

/** Kept on purpose, each with why. */
const exceptions = new Map([
  [
    "signature/match.ts#rankSignature",
    "the recognition bench's report of an unsure match (its runner-up): the matcher's own ranking steps on an index in memory, kept beside matchSignature so the bench measures the real ranking",
  ],
]);

const folderOf = (file) => path.relative(root, file).split(path.sep)[0];
const kindOf = (file) => {
  const folder = folderOf(file);
  // A unit test beside its module (x.test.ts) is a test, wherever it sits.
  if (/\.test\.tsx?$/.test(file)) return "test";
  // The catalogue builder (`npm run catalog`, vite-node) lives beside the origin it fills, but the
  // worker never imports it: build tooling, like scripts/.
  if (path.relative(root, file).startsWith(`origin${path.sep}catalog${path.sep}`)) return "tooling";
  // The strings' JSON files are data the build reads (scripts/locales-index.mjs), not modules:
  // a test may import one to name a string as a person sees it.
  if (folder === "locales" && file.endsWith(".json")) return "data";
  if (runtimeFolders.includes(folder) || folder === "locales") return "runtime";
  if (toolingFolders.includes(folder) || !path.relative(root, file).includes(path.sep)) return "tooling";
  return "test"; // tests/ and bench/
};
const isRoute = (relative) => relative.startsWith("app/routes/") || relative === "app/root.tsx";

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(root, "tsconfig.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  },
);
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: { ...config.options, noEmit: true },
});
const checker = program.getTypeChecker();
const ours = program
  .getSourceFiles()
  .filter((file) => !file.isDeclarationFile && !path.relative(root, file.fileName).startsWith(".."))
  .filter((file) => !file.fileName.includes("/node_modules/"));

/**
 * Who imports each module, and each exported declaration, as sets of importer kinds. A name is
 * followed through re-exports to its declaration (an index module re-exporting it is no use of
 * its own), so it is judged where it is declared.
 */
const moduleUsers = new Map();
const declarationUsers = new Map();
const note = (map, key, kind) => {
  if (!map.has(key)) map.set(key, new Set());
  map.get(key).add(kind);
};
const originalOf = (symbol) =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
const moduleSymbolOf = (specifier) => {
  const symbol = checker.getSymbolAtLocation(specifier);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  return declaration && ts.isSourceFile(declaration) ? symbol : undefined;
};
const noteUse = (identifier, kind) => {
  const symbol = checker.getSymbolAtLocation(identifier);
  if (symbol) note(declarationUsers, originalOf(symbol), kind);
};
/** All exports of a module at once: a namespace import, a dynamic import. */
const noteAllUsed = (moduleSymbol, kind) => {
  for (const exported of checker.getExportsOfModule(moduleSymbol))
    note(declarationUsers, originalOf(exported), kind);
};

for (const file of ours) {
  const kind = kindOf(file.fileName);
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const target = moduleSymbolOf(node.moduleSpecifier);
      if (target) {
        note(moduleUsers, target.valueDeclaration.fileName, kind);
        const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
        if (clause?.name) noteUse(clause.name, kind);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) noteAllUsed(target, kind);
        if (bindings && ts.isNamedImports(bindings))
          for (const element of bindings.elements) noteUse(element.name, kind);
      }
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      const target = moduleSymbolOf(node.arguments[0]);
      if (target) {
        note(moduleUsers, target.valueDeclaration.fileName, kind);
        // `const { a, b } = await import(…)` uses a and b; anything else may use every export.
        const declaration = ts.isAwaitExpression(node.parent) ? node.parent.parent : undefined;
        if (
          declaration &&
          ts.isVariableDeclaration(declaration) &&
          ts.isObjectBindingPattern(declaration.name)
        ) {
          const exports = new Map(
            checker.getExportsOfModule(target).map((symbol) => [symbol.getName(), symbol]),
          );
          for (const element of declaration.name.elements) {
            const exported = exports.get((element.propertyName ?? element.name).getText());
            if (exported) note(declarationUsers, originalOf(exported), kind);
          }
        } else noteAllUsed(target, kind);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

/** Whether a declaration is referenced in its own module (beyond its name): then it is a seam, not dead code. */
function usedInOwnModule(file, symbol) {
  const declared = new Set((symbol.declarations ?? []).map((declaration) => declaration.name ?? declaration));
  let used = false;
  const visit = (node) => {
    if (used) return;
    if (ts.isIdentifier(node) && !declared.has(node) && node.text === symbol.getName()) {
      const at = checker.getSymbolAtLocation(node);
      if (at && originalOf(at) === symbol && !ts.isExportSpecifier(node.parent)) used = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return used;
}

const usedOutsideTests = (kinds) => kinds !== undefined && (kinds.has("runtime") || kinds.has("tooling"));
const offenders = [];
let testedInPlace = 0;
for (const file of ours) {
  const relative = path.relative(root, file.fileName);
  if (kindOf(file.fileName) !== "runtime" || entryModules.has(relative)) continue;
  const byModule = moduleUsers.get(file.fileName);
  if (!isRoute(relative) && !usedOutsideTests(byModule)) {
    if (byModule?.has("test") && !exceptions.has(relative))
      offenders.push(`${relative}: imported only by tests or the bench`);
    continue;
  }
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) continue;
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const name = exported.getName();
    const original = originalOf(exported);
    if (!(original.flags & ts.SymbolFlags.Value)) continue;
    // A re-export is judged where its name is declared.
    if (!original.declarations?.some((declaration) => declaration.getSourceFile() === file)) continue;
    if (isRoute(relative) && routeConventions.has(name)) continue;
    const kinds = declarationUsers.get(original);
    if (usedOutsideTests(kinds) || !kinds?.has("test")) continue;
    const key = `${relative}#${name}`;
    if (exceptions.has(key)) continue;
    // A rule its own module runs, exported so a unit test drives it directly (pure logic tested
    // where it lives): the page uses it. Only a value nothing at runtime runs is dead.
    if (usedInOwnModule(file, original)) {
      testedInPlace++;
      continue;
    }
    offenders.push(
      `${relative}: export ${name} is used only by tests or the bench, and nowhere at runtime: dead code`,
    );
  }
}

if (offenders.length > 0) {
  for (const offender of offenders.sort()) console.error(`✖ ${offender}`);
  console.error(
    `${offenders.length} runtime module(s) or export(s) used only by tests: delete them, or move them to the tests.`,
  );
  process.exit(1);
}
console.log(
  `no runtime module or export is used only by tests (${ours.length} files read; ${testedInPlace} exports are rules their own module runs, exported for their unit tests)`,
);
