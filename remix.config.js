/**
 * Every import but those only some requests need: each language's strings, WebAuthn, the archive's
 * ZIP writer, the QR encoder. Remix leaves those as imports, and the next build step splits each
 * into a module of its own, loaded when first used (scripts/build-worker-modules.mjs, decision 061).
 */
const bundled = /^(?!((@simplewebauthn\/server|fflate|qrcode-generator)(\/|$)|#locales\/strings\.))/;

/**
 * Remix classic compiler, configured for Cloudflare Workers. The server entry is the Worker itself
 * (worker/index.ts: Hono, the services proxy, the embedded origin, AMP): one ESM module in
 * production mode, with the imports of what only some requests need left for the build's next step.
 * @type {import('@remix-run/dev').AppConfig}
 */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  server: "./worker/index.ts",
  serverBuildPath: "build/index.js",
  serverConditions: ["workerd", "worker", "browser"],
  serverDependenciesToBundle: [bundled],
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
