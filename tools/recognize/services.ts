import { readFile } from "node:fs/promises";
import path from "node:path";
import * as v from "valibot";
import { lookupTrack, requestMatch } from "#app/recognition/browser/match-service.ts";
import { parseParams } from "#origin/http.ts";
import { loadRecognitionIndex, type ReadAsset } from "#origin/recognition-index-load.ts";
import { SiteError } from "#rules/errors.ts";
import { type MatchRequestBody, type MatchSession, webrecMatchRequestSchema } from "#rules/schemas/webrec.ts";
import { decodeSignatureBase64, matchSignatureIn, trackIndexStore } from "#signature/index.ts";

/**
 * The two match services the command line asks: a running site over HTTP, with the page's own
 * request functions, or the embedded origin's index read from public/ and matched in-process.
 */

/** One answer of the match service: the track, where in it the recording starts, and how sure. */
export type ServiceMatch = {
  trackKey: string;
  offsetMs: number;
  /** Aligned hashes (the matcher's votes); null from a site, whose answer has no score. */
  score: number | null;
};

export type TrackTitle = { title: string; artist: string };

export type MatchService = {
  /** Spec 002 §3 web match request: the first match, or null. Failures are SiteErrors. */
  match(body: MatchRequestBody): Promise<ServiceMatch | null>;
  /** The title and artist of a matched track (a failure is the caller's to tolerate). */
  describe(trackKey: string): Promise<TrackTitle>;
};

/** The language and country every request is made in (the site's English, its default country). */
export const cliSession: Omit<MatchSession, "sessionId"> = { lang: "en", country: "GB" };

/** A site's first match loads its index (some 30 MB): more patience than a page's 10 s. */
export const siteMatchTimeoutMs = 30_000;

/** The page's requests are relative to the site it is on; here, to the site asked. */
function fetchOnSite(site: URL, fetchImpl: typeof fetch): typeof fetch {
  return (input, init) =>
    fetchImpl(new URL(input instanceof Request ? input.url : String(input), site), init);
}

/** POST /services/webrec/match and the track lookup, exactly as the page sends them. */
export function siteMatchService(site: URL, fetchImpl: typeof fetch = globalThis.fetch): MatchService {
  const onSite = fetchOnSite(site, fetchImpl);
  return {
    async match(body) {
      const answer = await requestMatch(body, { fetch: onSite, timeoutMs: siteMatchTimeoutMs }).catch(
        (error: unknown) => {
          // The page's messages name the path only: say which site.
          if (!(error instanceof SiteError)) throw error;
          throw new SiteError(error.type, `${error.message} (${site.origin})`, {
            status: error.status,
            body: error.body,
          });
        },
      );
      const [first] = answer.matches;
      return first ? { trackKey: first.trackId, offsetMs: first.offset, score: null } : null;
    },
    async describe(trackKey) {
      const track = await lookupTrack({ ...cliSession, trackId: trackKey }, { fetch: onSite });
      return { title: track.title, artist: track.subtitle };
    },
  };
}

/** Static assets from a public/ folder on disk, answered as the Worker's ASSETS binding would. */
export function diskAssets(publicDir: string): ReadAsset {
  return async (assetPath) => {
    try {
      return new Response(await readFile(path.join(publicDir, ...assetPath.split("/"))));
    } catch (error) {
      const code = (error as { code?: string }).code;
      return new Response(null, { status: code === "ENOENT" ? 404 : 500 });
    }
  };
}

/** The builder's catalog.json, as far as the command line reads it. */
const catalogueSchema = v.object({
  version: v.string(),
  tracks: v.array(v.object({ key: v.number(), title: v.string(), artist: v.string() })),
});

/** Where `--local` reads the index and the titles, below the project's root. */
export const localPaths = { public: "public", catalogue: "origin/catalog/dist/catalog.json" } as const;

const notBuilt = "npm run catalog or npm start builds it";

async function readCatalogue(file: string): Promise<v.InferOutput<typeof catalogueSchema>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new SiteError("serviceerror", `Cannot read the catalogue ${file}: ${notBuilt}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = v.safeParse(catalogueSchema, json);
  if (!parsed.success) {
    throw new SiteError("serviceerror", `Unexpected catalogue ${file}: ${v.summarize(parsed.issues)}`);
  }
  return parsed.output;
}

/**
 * The embedded origin's match service in-process: the index from public/media/recognition/ (its
 * SHA-256 checked as the Worker does), each request checked with the origin's own schema, the
 * signature decoded from the request as the origin decodes it, and the titles from the catalogue
 * the index was built with. A key the catalogue does not hold is no match, as at the origin.
 */
export async function localMatchService(
  root: string,
  warn: (message: string) => void,
): Promise<MatchService> {
  const loaded = await loadRecognitionIndex(diskAssets(path.join(root, localPaths.public))).catch(
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      throw new SiteError("serviceerror", `${message} (${notBuilt})`);
    },
  );
  const catalogue = await readCatalogue(path.join(root, localPaths.catalogue));
  if (catalogue.version !== loaded.catalogVersion) {
    warn(`the index was built from catalogue ${loaded.catalogVersion}, catalog.json is ${catalogue.version}`);
  }
  const tracks = new Map(catalogue.tracks.map((track) => [String(track.key), track]));
  const store = trackIndexStore(loaded.index);
  return {
    async match(body) {
      const request = parseParams(webrecMatchRequestSchema, body);
      const match = await matchSignatureIn(store, decodeSignatureBase64(request.data));
      if (!match) return null;
      if (!tracks.has(match.trackKey)) {
        warn(`matched ${match.trackKey}, which the catalogue does not hold`);
        return null;
      }
      return { trackKey: match.trackKey, offsetMs: match.offsetMs, score: match.score };
    },
    async describe(trackKey) {
      const track = tracks.get(trackKey);
      if (!track) throw new SiteError("notfound", `No track ${trackKey} in the catalogue`);
      return { title: track.title, artist: track.artist };
    },
  };
}
