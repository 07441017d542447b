/**
 * The import graph's rules (`npm run lint`): no cycle, and the import table of docs/architecture.md,
 * one rule per row. Paths are relative to the repository; a dependency "of ours" is one into a
 * folder of the table. Type-only imports count: a type is a dependency of the code that names it.
 */

/** Any folder of the import table: our own code, as opposed to packages and Node's modules. */
const ours = "^(rules|edge|signature|app|amp|origin|recognizer|worker|locales|tools|scripts|bench|tests)/";
/** App server code: page data, the server entry and the load context (never sent to the browser). */
const appServer = "^app/(.+[.]server[.]tsx?$|load-context[.]ts$)";
/** A unit test beside its module. */
const testFile = "[.]test[.]tsx?$";
/** React, React DOM, react-i18next and Remix, their type packages too. */
const uiLibraries = "node_modules/((@types/)?(react|react-dom|react-i18next)|@remix-run/[^/]+)/";

/** A folder of the table that may import `allowed` (a path pattern) of ours and nothing else of ours. */
function onlyImports(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: "error",
    // A unit test beside its module (x.test.ts) is of tests/, which may import everything.
    from:
      typeof from === "string"
        ? { path: from, pathNot: testFile }
        : { ...from, pathNot: from.pathNot ? `${from.pathNot}|${testFile}` : testFile },
    to: { path: ours, pathNot: allowed },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "A cycle: the modules cannot be read, tested or moved one without the other. Those through app/shell/every-page.ts, which only puts every page's shell in one browser chunk (decision 027, part 6), are not.",
      severity: "error",
      from: {},
      to: { circular: true, viaNot: "^app/shell/every-page[.]ts$" },
    },
    onlyImports("rules", "^rules/", "^rules/", "rules/ (every runtime) imports only rules/."),
    onlyImports("edge", "^edge/", "^(rules|edge)/", "edge/ (the workerd pipeline) imports rules/ and edge/."),
    onlyImports("signature", "^signature/", "^(rules|signature)/", "signature/ imports only rules/."),
    onlyImports(
      "app",
      { path: "^app/", pathNot: appServer },
      "^(rules|signature|locales|app)/",
      "app/ imports rules/, signature/ and locales/; only its server code also edge/.",
    ),
    onlyImports(
      "app-server",
      appServer,
      "^(rules|signature|locales|edge)/|^app/(?![^/]+/browser/)",
      "App server code (*.server.ts, load-context.ts) imports what app/ does and edge/, never a browser model (app/*/browser/).",
    ),
    onlyImports(
      "amp",
      "^amp/",
      "^(amp|rules|edge)/|^app/(?![^/]+/browser/|routes/)",
      "amp/ imports app/ (never browser code or a route module), rules/ and edge/ types.",
    ),
    {
      name: "amp-edge-types-only",
      comment: "amp/ names edge/'s types; the worker runs the pipeline.",
      severity: "error",
      from: { path: "^amp/" },
      to: { path: "^edge/", dependencyTypesNot: ["type-only"] },
    },
    onlyImports(
      "origin",
      "^origin/(?!catalog/)",
      "^(rules|signature|locales)/|^origin/(?!catalog/)",
      "origin/ (an upstream) imports rules/, signature/ and locales/; never edge/, never the catalogue builder.",
    ),
    onlyImports(
      "recognizer",
      "^recognizer/",
      "^(rules|signature|recognizer)/",
      "recognizer/ (a Worker of its own, behind the site's service binding) imports rules/ and signature/; the site reaches it only through the binding.",
    ),
    onlyImports(
      "origin-catalog",
      "^origin/catalog/",
      "^(origin|rules|signature)/",
      "origin/catalog/ (the catalogue builder) imports origin/, rules/ and signature/.",
    ),
    onlyImports(
      "worker",
      "^worker/",
      "^(rules|edge|signature|app|amp|origin|locales|worker)/",
      "worker/ wires the site: everything but the Node programs and the catalogue builder.",
    ),
    {
      name: "origin-one-face",
      comment:
        "The worker hands the embedded origin requests, queue batches and Cron Triggers through its one face, origin/index.ts.",
      severity: "error",
      from: { path: "^worker/" },
      to: { path: "^origin/", pathNot: "^origin/index[.]ts$" },
    },
    {
      name: "worker-not-catalogue",
      comment: "The catalogue builder is Node only.",
      severity: "error",
      from: { path: "^worker/" },
      to: { path: "^origin/catalog/" },
    },
    onlyImports("locales", "^locales/", "^locales/", "locales/ imports nothing."),
    onlyImports(
      "tools",
      "^tools/",
      "^(?!scripts/|bench/|tests/)",
      "tools/ never imports scripts/, bench/, tests/.",
    ),
    onlyImports(
      "scripts",
      "^scripts/",
      "^(?!bench/|tests/)",
      "scripts/ (npm start, the build) never imports bench/ or tests/.",
    ),
    onlyImports("bench", "^bench/", "^(?!tests/)", "bench/ never imports tests/."),
    {
      name: "services-one-entry",
      comment: "The services proxy is one module folder: outside it, import edge/services (its index.ts).",
      severity: "error",
      from: { pathNot: "^(edge/services|tests)/" },
      to: { path: "^edge/services/", pathNot: "^edge/services/index[.]ts$" },
    },
    {
      name: "no-ui-libraries",
      comment: "The rules, the pipeline, the signature and the origin run without React or Remix.",
      severity: "error",
      from: { path: "^(rules|edge|signature|origin)/" },
      to: { path: uiLibraries },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|public|origin/catalog/dist|[.]wrangler)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
