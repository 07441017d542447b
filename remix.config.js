/**
 * Remix classic compiler, configured for Cloudflare Workers. The server entry is the Worker itself
 * (worker/index.ts: Hono, the services proxy, the embedded origin, AMP): one ESM bundle with every
 * dependency inlined once, built in production mode, which is what `wrangler deploy` ships.
 * @type {import('@remix-run/dev').AppConfig}
 */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  server: "./worker/index.ts",
  serverBuildPath: "build/index.js",
  serverConditions: ["workerd", "worker", "browser"],
  serverDependenciesToBundle: "all",
  serverMainFields: ["browser", "module", "main"],
  serverMinify: true,
  serverModuleFormat: "esm",
  serverPlatform: "neutral",
  assetsBuildDirectory: "public/build",
  publicPath: "/build/",
  future: {
    v3_fetcherPersist: true,
    v3_lazyRouteDiscovery: true,
    v3_relativeSplatPath: true,
    v3_singleFetch: true,
    v3_throwAbortReason: true,
  },
};
