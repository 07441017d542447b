#!/usr/bin/env node
/**
 * After `remix build`: the Remix manifest, in the browser build (public/build/manifest-*.js) and
 * in the server build (build/index.js), names every module by its encoded URL (scripts/asset-urls.mjs),
 * so that a modulepreload, a route's import() and the service worker's precache ask for what the
 * assets server answers without a redirect.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withEncodedAssetUrls } from "./asset-urls.mjs";

const root = path.resolve(import.meta.dirname, "..");
const browserBuild = path.join(root, "public/build");
const files = [
  path.join(root, "build/index.js"),
  ...readdirSync(browserBuild)
    .filter((name) => /^manifest-[A-Z0-9]+\.js$/.test(name))
    .map((name) => path.join(browserBuild, name)),
];
if (files.length !== 2) throw new Error("encode-asset-urls: expected build/index.js and one Remix manifest");
for (const file of files) writeFileSync(file, withEncodedAssetUrls(readFileSync(file, "utf8")));
