import { randomUUID } from "node:crypto";
import path from "node:path";
import { AudioDecodeError, type DecodedAudio, decodeAudioFile } from "#origin/catalog/audio-decode.ts";
import { SiteError } from "#rules/errors.ts";
import { type MatchSession, matchRequestBody } from "#rules/schemas/webrec.ts";
import {
  computeSignature,
  encodeSignatureBase64,
  MAX_INPUT_SAMPLE_RATE,
  MIN_INPUT_SAMPLE_RATE,
  RECORDING_CHECKPOINTS_SECONDS,
  resample,
  SIGNATURE_SAMPLE_RATE,
} from "#signature/index.ts";
import { parseRecognizeArgs, type RecognizeOptions, usage } from "./args";
import { cliSession, localMatchService, type MatchService, siteMatchService } from "./services";

/**
 * `npm run recognize`: identifies audio files with the website's signature module and match
 * service, one line per file as soon as it is done, then a summary. See docs/recognize-cli.md.
 */

export const exitStatus = {
  /** Every file was read (matched or not). */
  ok: 0,
  /** A file could not be read: missing, unsupported or corrupt. */
  unreadable: 1,
  usage: 2,
  /** The match service failed: the site did not answer, or the local index could not be loaded. */
  service: 3,
} as const;

export type FileResult =
  | {
      kind: "match";
      file: string;
      trackKey: string;
      /** Null when the title lookup failed: the match stands without it, as on the site. */
      title: string | null;
      artist: string | null;
      /** Position in the track of the matched audio's first sample. */
      offsetMs: number;
      /** Where in the file the matched audio starts (0 unless the beginning did not match). */
      heardAtMs: number;
      score: number | null;
      /** Signatures and match requests of the file, every checkpoint tried (decoding excluded). */
      ms: number;
      /** How much of the file was heard: the end of the last stretch sent. */
      seconds: number;
    }
  | { kind: "nomatch"; file: string; ms: number; seconds: number }
  | {
      kind: "error";
      file: string;
      /** `file`: the file could not be read or signed; `service`: the match service failed. */
      failed: "file" | "service";
      /** The decoder's or the signature's reason, or the site error's type. */
      type: string;
      message: string;
    };

export type Summary = { files: number; matched: number; unmatched: number; errors: number; ms: number };

/** A stretch of the file to match: `seconds` of audio from `fromSeconds` on. */
export type Attempt = { fromSeconds: number; seconds: number };

/** The longest recording the site sends (its final checkpoint). */
const windowSeconds = Math.max(...RECORDING_CHECKPOINTS_SECONDS);
/** A last stretch shorter than the first checkpoint is not worth a request. */
const shortestSeconds = Math.min(...RECORDING_CHECKPOINTS_SECONDS);

/**
 * What to match in turn, for a file of `durationSeconds`: with `seconds`, only the beginning that
 * long. Without, the whole file: its beginning at the site's checkpoints (3, 6, 9, 12 s, as a
 * person listening would send them), then every following 12 s, so that a recording whose song
 * starts late (a voice memo that talks first, a radio log) is still found. A file shorter than a
 * checkpoint is sent whole.
 */
export function attemptsFor(durationSeconds: number, seconds: number | null): Attempt[] {
  if (seconds !== null) return [{ fromSeconds: 0, seconds: Math.min(seconds, durationSeconds) }];
  const attempts: Attempt[] = [];
  for (const checkpoint of RECORDING_CHECKPOINTS_SECONDS) {
    attempts.push({ fromSeconds: 0, seconds: Math.min(checkpoint, durationSeconds) });
    if (checkpoint >= durationSeconds) return attempts;
  }
  for (let from = windowSeconds; durationSeconds - from >= shortestSeconds; from += windowSeconds) {
    attempts.push({ fromSeconds: from, seconds: Math.min(windowSeconds, durationSeconds - from) });
  }
  return attempts;
}

/**
 * The `data` of a match request for a recording, as the page's signature worker makes it. A rate
 * the signature does not take (below 8 or above 192 kHz) is first brought to its own 8 kHz.
 */
export function signatureData(samples: Float32Array, sampleRate: number): string {
  const takes = sampleRate >= MIN_INPUT_SAMPLE_RATE && sampleRate <= MAX_INPUT_SAMPLE_RATE;
  return encodeSignatureBase64(
    takes
      ? computeSignature(samples, sampleRate)
      : computeSignature(resample(samples, sampleRate, SIGNATURE_SAMPLE_RATE), SIGNATURE_SAMPLE_RATE),
  );
}

function errorResult(file: string, failed: "file" | "service", error: unknown): FileResult {
  const message = error instanceof Error ? error.message : String(error);
  let type = "error";
  if (error instanceof AudioDecodeError) type = error.reason;
  else if (error instanceof SiteError) {
    const reason = error.args?.reason;
    type = failed === "file" && typeof reason === "string" ? reason : error.type;
  }
  return { kind: "error", file, failed, type, message };
}

/**
 * Decodes one file and matches its beginning at each length in turn, in one listening session,
 * until the service answers with a match or the whole file has been heard.
 */
export async function recognizeAudio(
  file: string,
  audio: DecodedAudio,
  service: MatchService,
  options: { seconds: number | null; warn: (message: string) => void },
): Promise<FileResult> {
  const session: MatchSession = { sessionId: randomUUID(), ...cliSession };
  const started = performance.now();
  let heard = 0;
  const rate = audio.sampleRate;
  for (const attempt of attemptsFor(audio.samples.length / rate, options.seconds)) {
    const from = Math.round(attempt.fromSeconds * rate);
    const to = Math.min(audio.samples.length, from + Math.round(attempt.seconds * rate));
    let data: string;
    try {
      data = signatureData(audio.samples.subarray(from, to), rate);
    } catch (error) {
      return errorResult(file, "file", error);
    }
    heard = to / rate;
    let match: Awaited<ReturnType<MatchService["match"]>>;
    try {
      match = await service.match(matchRequestBody(data, session));
    } catch (error) {
      return errorResult(file, "service", error);
    }
    if (match) {
      const ms = performance.now() - started;
      const track = await service.describe(match.trackKey).catch((error: unknown) => {
        options.warn(
          `no title for track ${match.trackKey}: ${error instanceof Error ? error.message : error}`,
        );
        return null;
      });
      return {
        kind: "match",
        file,
        trackKey: match.trackKey,
        title: track?.title ?? null,
        artist: track?.artist ?? null,
        offsetMs: match.offsetMs,
        heardAtMs: Math.round(attempt.fromSeconds * 1000),
        score: match.score,
        ms,
        seconds: heard,
      };
    }
  }
  return { kind: "nomatch", file, ms: performance.now() - started, seconds: heard };
}

/** Reads `file` (relative to `cwd`) and recognises it; the result names the file as given. */
export async function recognizeFile(
  file: string,
  service: MatchService,
  options: { seconds: number | null; warn: (message: string) => void; cwd: string },
): Promise<FileResult> {
  let audio: DecodedAudio;
  try {
    audio = await decodeAudioFile(path.resolve(options.cwd, file));
  } catch (error) {
    return errorResult(file, "file", error);
  }
  return recognizeAudio(file, audio, service, options);
}

/** A TSV cell: tabs and line breaks (a file name may hold them) become spaces. */
function cell(value: string | number | null): string {
  return value === null ? "-" : String(value).replace(/[\t\r\n]+/g, " ");
}

/**
 * One line: file, track key or -, title, artist, offset in the track (ms), score, time taken (ms);
 * an unmatched file has - in every column but the first and the time; a failed one is file,
 * `error`, then its type and message.
 */
export function formatTsv(result: FileResult): string {
  switch (result.kind) {
    case "match":
      return [
        result.file,
        result.trackKey,
        result.title,
        result.artist,
        result.offsetMs,
        result.score,
        Math.round(result.ms),
      ]
        .map(cell)
        .join("\t");
    case "nomatch":
      return [result.file, null, null, null, null, null, Math.round(result.ms)].map(cell).join("\t");
    case "error":
      return [result.file, "error", `${result.type}: ${result.message}`].map(cell).join("\t");
  }
}

export function formatJson(result: FileResult): string {
  if (result.kind === "error") {
    return JSON.stringify({ file: result.file, error: { type: result.type, message: result.message } });
  }
  const matched = result.kind === "match";
  return JSON.stringify({
    file: result.file,
    trackKey: matched ? result.trackKey : null,
    title: matched ? result.title : null,
    artist: matched ? result.artist : null,
    offsetMs: matched ? result.offsetMs : null,
    heardAtMs: matched ? result.heardAtMs : null,
    score: matched ? result.score : null,
    ms: Math.round(result.ms),
    seconds: Math.round(result.seconds * 1000) / 1000,
  });
}

export function formatSummary(summary: Summary, json: boolean): string {
  const rounded = { ...summary, ms: Math.round(summary.ms) };
  if (json) return JSON.stringify({ summary: rounded });
  const { files, matched, unmatched, errors, ms } = rounded;
  return `# ${files} ${files === 1 ? "file" : "files"}: ${matched} matched, ${unmatched} not matched, ${errors} failed; ${ms} ms`;
}

export type Output = { write(text: string): unknown };

export type RecognizeIO = {
  stdout: Output;
  stderr: Output;
  /** For site mode. Default: the global fetch. */
  fetch?: typeof fetch;
  /** The project's root, where `--local` finds public/ and the catalogue. Default: this checkout. */
  root?: string;
  /** Relative file names are read from here. Default: the process's working directory. */
  cwd?: string;
};

const projectRoot = path.resolve(import.meta.dirname, "../..");

async function openService(options: RecognizeOptions, io: RecognizeIO, warn: (message: string) => void) {
  return options.mode.kind === "local"
    ? localMatchService(io.root ?? projectRoot, warn)
    : siteMatchService(options.mode.site, io.fetch);
}

/** Runs the command line; returns the exit status. */
export async function main(argv: readonly string[], io: RecognizeIO): Promise<number> {
  const parsed = parseRecognizeArgs(argv);
  if (parsed.kind === "help") {
    io.stdout.write(usage);
    return exitStatus.ok;
  }
  if (parsed.kind === "usage") {
    io.stderr.write(`recognize: ${parsed.message}\n\n${usage}`);
    return exitStatus.usage;
  }
  const { options } = parsed;
  const warn = (message: string) => io.stderr.write(`recognize: warning: ${message}\n`);
  const started = performance.now();
  let service: MatchService;
  try {
    service = await openService(options, io, warn);
  } catch (error) {
    io.stderr.write(`recognize: ${error instanceof Error ? error.message : error}\n`);
    return exitStatus.service;
  }
  const summary: Summary = { files: 0, matched: 0, unmatched: 0, errors: 0, ms: 0 };
  let status: number = exitStatus.ok;
  for (const file of options.files) {
    const result = await recognizeFile(file, service, {
      seconds: options.seconds,
      warn,
      cwd: io.cwd ?? process.cwd(),
    });
    io.stdout.write(`${options.json ? formatJson(result) : formatTsv(result)}\n`);
    summary.files++;
    if (result.kind === "match") summary.matched++;
    else if (result.kind === "nomatch") summary.unmatched++;
    else {
      summary.errors++;
      if (result.failed === "service") status = exitStatus.service;
      else if (status === exitStatus.ok) status = exitStatus.unreadable;
    }
  }
  summary.ms = performance.now() - started;
  io.stdout.write(`${formatSummary(summary, options.json)}\n`);
  return status;
}
