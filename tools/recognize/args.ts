import { parseArgs } from "node:util";
import { SIGNATURE_MAX_SECONDS } from "#signature/index.ts";

/** The site `npm start` serves. */
export const defaultSite = "http://127.0.0.1:8787";

/** Where the files are matched: a running site over HTTP, or the embedded origin's index in-process. */
export type MatchMode = { kind: "site"; site: URL } | { kind: "local" };

export type RecognizeOptions = {
  mode: MatchMode;
  /** Match only the first this many seconds; null: the site's checkpoints in turn until a match. */
  seconds: number | null;
  /** JSON lines instead of tab-separated values. */
  json: boolean;
  files: string[];
};

export type ParsedArgs =
  | { kind: "run"; options: RecognizeOptions }
  | { kind: "help" }
  /** A usage error: the message, then the usage, and exit status 2. */
  | { kind: "usage"; message: string };

export const usage = `Usage: npm run recognize -- [options] <file>...

Identifies recordings (WAV, Ogg Vorbis, Opus, MP3, FLAC) with the website's signature and match
service: the first 3 s, then 6, 9 and 12 s like the site's listening, until one matches.

Options:
  --site URL    the running site whose POST /services/webrec/match is asked
                (default ${defaultSite})
  --local       match in-process against the embedded origin's index in public/ instead
  --seconds N   match only the first N seconds (at most ${SIGNATURE_MAX_SECONDS})
  --json        one JSON object per line instead of tab-separated values
  -h, --help    this text

Each file gives one line: file, track key or -, title, artist, offset in the track (ms),
score (--local only), time taken (ms); or file, "error" and why. A summary line ends the run.
Exit status: 0 every file was read; 1 a file could not be read; 2 a usage error;
3 the match service failed.
`;

/** Reads the command line; never throws and never exits, so that every case is testable. */
export function parseRecognizeArgs(argv: readonly string[]): ParsedArgs {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    return { kind: "usage", message: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: "help" };
  if (values.local && values.site !== undefined) {
    return { kind: "usage", message: "--local and --site exclude each other" };
  }
  let mode: MatchMode = { kind: "local" };
  if (!values.local) {
    const site = URL.canParse(values.site ?? defaultSite) ? new URL(values.site ?? defaultSite) : null;
    if (!site || (site.protocol !== "http:" && site.protocol !== "https:")) {
      return { kind: "usage", message: `--site needs an http or https URL, not "${values.site}"` };
    }
    mode = { kind: "site", site };
  }
  let seconds: number | null = null;
  if (values.seconds !== undefined) {
    seconds = Number(values.seconds);
    if (
      values.seconds.trim() === "" ||
      !Number.isFinite(seconds) ||
      seconds <= 0 ||
      seconds > SIGNATURE_MAX_SECONDS
    ) {
      return {
        kind: "usage",
        message: `--seconds needs a number of seconds above 0 and at most ${SIGNATURE_MAX_SECONDS}, not "${values.seconds}"`,
      };
    }
  }
  if (positionals.length === 0) return { kind: "usage", message: "No files to recognise" };
  return { kind: "run", options: { mode, seconds, json: values.json ?? false, files: positionals } };
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      site: { type: "string" },
      local: { type: "boolean" },
      seconds: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
