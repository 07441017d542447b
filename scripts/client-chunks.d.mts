export type ClientMetafile = {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
};
export type ChunkKind = "framework" | "site";
export type ChunkDescription = { url: string; kind: ChunkKind; largest: { owner: string; bytes: number }[] };
export function ownerOf(input: string): string;
export function isFramework(owner: string): boolean;
export function readClientMetafile(root: string): ClientMetafile;
export function describeChunk(metafile: ClientMetafile, url: string): ChunkDescription;
export function scriptsOfRoutes(
  manifest: { entry: { module: string; imports: string[] } },
  routes: readonly { module: string; imports?: string[] }[],
): string[];
export const gzipLevel: number;
export function gzipSize(bytes: Uint8Array): number;
export function gzipBytesOf(publicDir: string, url: string): number;
