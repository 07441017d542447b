// The Remix server bundle written by `remix build` to build/index.js (see [alias] in wrangler.toml).
declare module "@remix-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  export const mode: ServerBuild["mode"];
  export const entry: ServerBuild["entry"];
  export const routes: ServerBuild["routes"];
  export const assets: ServerBuild["assets"];
  export const basename: ServerBuild["basename"];
  export const publicPath: ServerBuild["publicPath"];
  export const assetsBuildDirectory: ServerBuild["assetsBuildDirectory"];
  export const future: ServerBuild["future"];
  export const isSpaMode: ServerBuild["isSpaMode"];
}
