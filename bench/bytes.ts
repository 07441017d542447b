import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type AgnosticRouteObject, matchRoutes } from "@remix-run/router";
import * as v from "valibot";
import { assetFileOf } from "#scripts/asset-urls.mjs";
import { type ClientMetafile, describeChunk, gzipSize, scriptsOfRoutes } from "#scripts/client-chunks.mjs";

const manifestRouteSchema = v.object({
  id: v.string(),
  parentId: v.optional(v.string()),
  path: v.optional(v.string()),
  index: v.optional(v.boolean()),
  module: v.string(),
  imports: v.optional(v.array(v.string())),
  css: v.optional(v.array(v.string())),
});

/** `public/build/manifest-*.js` of the Remix classic compiler: `window.__remixManifest={…};`. */
const remixManifestSchema = v.object({
  entry: v.object({ module: v.string(), imports: v.array(v.string()) }),
  routes: v.record(v.string(), manifestRouteSchema),
  url: v.optional(v.string()),
});

export type RemixManifest = v.InferOutput<typeof remixManifestSchema>;
type ManifestRoute = v.InferOutput<typeof manifestRouteSchema>;

export function parseManifest(source: string): RemixManifest {
  const json = source
    .trim()
    .replace(/^window\.__remixManifest\s*=\s*/, "")
    .replace(/;$/, "");
  return v.parse(remixManifestSchema, JSON.parse(json));
}

/** The manifest the server bundle names (`/build/manifest-XXXX.js`), read from the public folder. */
export function readManifest(publicDir: string, workerSource: string): RemixManifest {
  const name = /\/build\/manifest-[A-Z0-9]+\.js/.exec(workerSource)?.[0];
  if (!name) throw new Error("the worker bundle names no Remix manifest");
  const file = path.join(publicDir, name);
  if (!existsSync(file)) throw new Error(`${name} is not in ${publicDir}: the build changed under the bench`);
  return parseManifest(readFileSync(file, "utf8"));
}

type RouteNode = AgnosticRouteObject & { id: string };

function routeTree(manifest: RemixManifest, parentId: string | undefined): RouteNode[] {
  return Object.values(manifest.routes)
    .filter((route) => route.parentId === parentId)
    .map((route): RouteNode => {
      const base = { id: route.id, path: route.path, caseSensitive: false };
      return route.index ? { ...base, index: true } : { ...base, children: routeTree(manifest, route.id) };
    });
}

/** The manifest routes a first visit to `pathname` renders, root first. */
export function matchedRoutes(manifest: RemixManifest, pathname: string): ManifestRoute[] {
  const matches = matchRoutes(routeTree(manifest, undefined), pathname) ?? [];
  return matches.flatMap(({ route }) => {
    const entry = manifest.routes[route.id];
    return entry ? [entry] : [];
  });
}

/** The scripts a first visit loads for `pathname`: the entry, then each matched route's module and imports. */
export function scriptsOf(manifest: RemixManifest, pathname: string): string[] {
  return scriptsOfRoutes(manifest, matchedRoutes(manifest, pathname));
}

/**
 * Stylesheets of the matched routes in the manifest (CSS bundling), those the page links, and those
 * it inlines under their file's address (`<style data-href>`, app/shell/stylesheets.tsx): inlined CSS is
 * still CSS a first visit receives.
 */
export function stylesheetsOf(manifest: RemixManifest, pathname: string, html: string): string[] {
  const fromManifest = matchedRoutes(manifest, pathname).flatMap((route) => route.css ?? []);
  const linked = [...html.matchAll(/<link\b[^>]*>/g)]
    .map((match) => match[0])
    .filter((tag) => /\brel="stylesheet"/.test(tag))
    .flatMap((tag) => {
      const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
      return href?.startsWith("/") && !href.startsWith("//") ? [href] : [];
    });
  const inlined = [...html.matchAll(/<style\b[^>]*\bdata-href="(\/[^/"][^"]*)"/g)].map(
    (match) => match[1] ?? "",
  );
  return [...new Set([...fromManifest, ...linked, ...inlined])];
}

export type FileSize = { url: string; rawBytes: number; gzipBytes: number };
export type FileSizes = { files: number; rawBytes: number; gzipBytes: number; each: FileSize[] };

/** Sizes of files the site serves from `publicDir`, by their URL path, largest first in `each`. */
export function sizesOf(publicDir: string, urls: readonly string[]): FileSizes {
  const each = urls.map((url): FileSize => {
    const file = path.join(publicDir, assetFileOf(url));
    if (!existsSync(file)) throw new Error(`${url} is not in ${publicDir}`);
    const bytes = readFileSync(file);
    return { url, rawBytes: bytes.length, gzipBytes: gzipSize(bytes) };
  });
  return {
    files: each.length,
    rawBytes: each.reduce((sum, file) => sum + file.rawBytes, 0),
    gzipBytes: each.reduce((sum, file) => sum + file.gzipBytes, 0),
    each: each.sort((a, b) => b.gzipBytes - a.gzipBytes),
  };
}

export type ChunkCost = FileSize & { kind: "framework" | "site"; owners: string[] };
export type SplitSizes = { framework: number; site: number; chunks: ChunkCost[] };

/** A page's scripts split into the framework floor and the site's code (gzip), each chunk with its largest owners. */
export function splitByOwner(metafile: ClientMetafile, js: FileSizes): SplitSizes {
  const chunks = js.each.map((file): ChunkCost => {
    const { kind, largest } = describeChunk(metafile, file.url);
    return { ...file, kind, owners: largest.slice(0, 3).map((owner) => owner.owner) };
  });
  const sum = (kind: ChunkCost["kind"]) =>
    chunks.filter((chunk) => chunk.kind === kind).reduce((total, chunk) => total + chunk.gzipBytes, 0);
  return { framework: sum("framework"), site: sum("site"), chunks };
}
