// Issue 25's "No runtime module or export is used only by tests", as a lint step (npm run lint).
//
// Runtime code is what the deployed worker and the browser run: app/ edge/ amp/ worker/ origin/
// signature/ (locales/ is JSON, no exports), but not origin/catalog/, the catalogue builder that
// `npm run catalog` runs and the worker never imports. Its users are runtime code and the build tooling that
// makes what ships (scripts/, tools/: the catalogue, site files, the recognition worker's bundle).
// tests/ and bench/ are not users: a value the bench alone needs is a seam for measuring, not part
// of the site, exactly like one a test alone needs. So this lists, with the TypeScript compiler:
// - every exported value (function, constant, class) of a runtime module that no runtime or
//   tooling module imports, but a test or the bench does (types are erased: a test may name the
//   type of a runtime function's parameter);
// - every runtime module that no runtime or tooling module imports, but a test or the bench does.
// The framework's entry points and conventions are used by Remix, workerd and wrangler, not by
// imports, and are allowed below by name. A module whose only importer is itself test-only shows
// up once that one is gone (run it again after a fix).
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const runtimeFolders = ["app", "edge", "amp", "worker", "origin", "signature"];
const toolingFolders = ["scripts", "tools"];

/** Modules something other than an import loads: the server and browser entries, the Web Worker. */
const entryModules = new Set([
  "worker/index.ts",
  "app/entry.client.tsx",
  "app/entry.server.tsx",
  "app/root.tsx",
  "app/client/recognition/signature-worker.ts",
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

/**
 * Not yet worked off (issue 25): values their module uses at runtime, exported only so their unit
 * tests can call them directly (pure rules, the spec's named constants a test drives a fake clock
 * with). Each is to be un-exported with its test moved to what the runtime calls. The list only
 * shrinks: a new offender fails, and so does an entry here that is no longer one.
 */
const notYetUnexported = new Set([
  "amp/css.ts#byteLength",
  "amp/css.ts#cssBudgetBytes",
  "amp/document.tsx#ampRuntimeUrl",
  "amp/primitives.tsx#fixedImageSrc",
  "amp/render.tsx#ampErrorDocument",
  "amp/render.tsx#strictStrings",
  "amp/request.ts#ampRedirectLocation",
  "app/beacon-params.ts#sanitizeBeaconValue",
  "app/client/beacons.ts#navigationTimeoutMs",
  "app/client/beacons.ts#outboundBeaconWaitMs",
  "app/client/bridge.ts#bridgeQueueLimit",
  "app/client/bridge.ts#bridgeRequestTimeoutMs",
  "app/client/bridge.ts#findAppHost",
  "app/client/cloud-auth.ts#currentUserUrl",
  "app/client/cloud-library.ts#cloudTagId",
  "app/client/cloud-library.ts#cloudTrackLookupConcurrency",
  "app/client/cloud-library.ts#recordsQueryBody",
  "app/client/environment.ts#aboutBridgeDataSchema",
  "app/client/environment.ts#compareVersions",
  "app/client/environment.ts#screenMode",
  "app/client/health.ts#dnsHealthId",
  "app/client/health.ts#dnsHealthPath",
  "app/client/in-app.ts#deepLinkNavigationDelayMs",
  "app/client/in-app.ts#deepLinkUrl",
  "app/client/in-app.ts#followDeepLink",
  "app/client/in-app.ts#showsUpsell",
  "app/client/outbound.ts#outboundHost",
  "app/client/recent-searches.ts#recentSearchesKey",
  "app/client/recognition/capture.ts#audioConstraints",
  "app/client/recognition/failures.ts#recordingStatistic",
  "app/client/recognition/failures.ts#serviceStatistic",
  "app/client/request.ts#defaultRequestTimeoutMs",
  "app/client/search-box-model.ts#navigableOptions",
  "app/client/search-box-results.ts#artistRows",
  "app/client/search-box-results.ts#songRows",
  "app/client/storage.ts#storageDefaultExpiryMs",
  "app/client/storage.ts#storageFormatVersion",
  "app/client/storage.ts#storageVersionKey",
  "app/client/storage.ts#webIdLifetimeMs",
  "app/client/tagging.ts#initialTagTrackingState",
  "app/client/tagging.ts#isSynced",
  "app/client/tagging.ts#nextTagTrackingState",
  "app/client/tagging.ts#tagTiming",
  "app/client/visibility.ts#scrollVisibilityObserver",
  "app/client/visibility.ts#visibilityCheckDelayMs",
  "app/components/overlay.tsx#anchoredPosition",
  "app/components/overlay.tsx#placeAroundAnchor",
  "app/crawler-files.ts#securityTxtLifetimeDays",
  "app/data/artist.server.ts#adamIdRouteFeature",
  "app/data/charts.server.ts#chartFileName",
  "app/data/charts.server.ts#resolveChart",
  "app/data/charts.server.ts#storefrontOf",
  "app/data/events.server.ts#previewQuery",
  "app/data/search.server.ts#checkSearchTerm",
  "app/data/track.server.ts#headingBackgroundOf",
  "app/data/track.server.ts#musicRecordingJsonLd",
  "app/data/track.server.ts#orderedStores",
  "app/data/track.server.ts#releasedText",
  "app/data/track.server.ts#shareLinks",
  "app/data/track.server.ts#storePlatformOf",
  "app/data/track.server.ts#trackKeyOf",
  "app/home-screen.server.ts#manifestIcons",
  "app/http.server.ts#redirectOfError",
  "app/search-groups.ts#isAllowedSearchGroupTransition",
  "app/search-groups.ts#searchGroupStates",
  "app/sitemaps.ts#escapeXml",
  "app/synced-lyrics.ts#currentLineIndex",
  "app/synced-lyrics.ts#isSyncedLyricsShown",
  "app/synced-lyrics.ts#songPosition",
  "edge/content-rules.ts#hexToRgb",
  "edge/csv.ts#csvField",
  "edge/document-cache.ts#documentStaleSeconds",
  "edge/errors.ts#siteErrorTypes",
  "edge/feature-flags.ts#defaultFeatureConfig",
  "edge/feature-flags.ts#featureNodeSchema",
  "edge/feature-flags.ts#isInRollout",
  "edge/feature-flags.ts#parseFeatureConfig",
  "edge/feature-flags.ts#rolloutBucket",
  "edge/languages.ts#parseAcceptLanguage",
  "edge/offers.ts#offerStates",
  "edge/path.ts#pageTypes",
  "edge/schemas/track.ts#storeNames",
  "edge/services-cache.ts#createMemoryTier",
  "edge/services-cache.ts#parseCacheControl",
  "edge/services-cache.ts#sizeOf",
  "locales/index.ts#namespaces",
  "origin/events.ts#eventIdOf",
  "origin/events.ts#parseEventId",
  "origin/privacy-archive.ts#archiveFiles",
  "origin/recognition-index.ts#recognitionProbesSchema",
  "origin/routes/sinks.ts#beaconsKept",
  "origin/routes/sinks.ts#beaconsPerClientPerMinute",
  "origin/routes/sinks.ts#logBodyMaxBytes",
  "origin/routes/webrec.ts#signatureSummary",
  "origin/routes/webrec.ts#webrecMaxBodyBytes",
  "origin/webauthn.ts#decodeCbor",
  "signature/match.ts#judge",
  "signature/signature.ts#decodeSignature",
  "signature/signature.ts#encodeSignature",
]);

const folderOf = (file) => path.relative(root, file).split(path.sep)[0];
const kindOf = (file) => {
  const folder = folderOf(file);
  // The catalogue builder (`npm run catalog`, vite-node) lives beside the origin it fills, but the
  // worker never imports it: build tooling, like scripts/.
  if (path.relative(root, file).startsWith(`origin${path.sep}catalog${path.sep}`)) return "tooling";
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
    if (notYetUnexported.delete(key)) continue;
    offenders.push(
      usedInOwnModule(file, original)
        ? `${relative}: export ${name} is used only by tests or the bench (its module uses it: un-export it)`
        : `${relative}: export ${name} is used only by tests or the bench (and nowhere else: dead code)`,
    );
  }
}

for (const key of notYetUnexported)
  offenders.push(`${key} is listed as not yet un-exported but is no offender now: take it off the list`);

if (offenders.length > 0) {
  for (const offender of offenders.sort()) console.error(`✖ ${offender}`);
  console.error(
    `${offenders.length} runtime module(s) or export(s) used only by tests: delete them, or un-export what only its own module uses.`,
  );
  process.exit(1);
}
console.log(`no runtime module or export is used only by tests (${ours.length} files read)`);
