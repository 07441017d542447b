import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/**
 * The official AMP validator, offline. The npm package `next` ships the validator's WebAssembly
 * build; it is fetched from the registry with `npm pack` the first time, only that one file is
 * kept in a cache outside the repository, and `amphtml-validator` loads it from there (no network).
 */

const run = promisify(execFile);

/** The package and file the validator comes from. */
const validatorPackage = "next@15.5.29";
const validatorPathInPackage = "package/dist/compiled/amphtml-validator/validator_wasm.js";
/** The file's SHA-256 as that version ships it: a changed file is not the validator we checked. */
const validatorSha256 = "f1f4629ab36f555f5a9937a5cf00f0ef780bf025883c035d06389b151c896f26";

export const validatorCacheDir = path.join(homedir(), ".cache", "tunewave", "next-validator");
const validatorFile = path.join(validatorCacheDir, "validator_wasm.js");

export type AmpValidationError = {
  severity: "ERROR" | "WARNING" | "UNKNOWN_SEVERITY";
  line: number;
  col: number;
  message: string;
  code: string;
  specUrl: string | null;
};

export type AmpValidationResult = { status: "PASS" | "FAIL" | "UNKNOWN"; errors: AmpValidationError[] };

type Validator = { validateString(html: string, htmlFormat?: string): AmpValidationResult };
type ValidatorModule = { getInstance(validatorJs: string): Promise<Validator> };

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** The validator file in the cache: checked against its hash, fetched with `npm pack` when missing. */
async function validatorPath(): Promise<string> {
  if (existsSync(validatorFile) && sha256(validatorFile) === validatorSha256) return validatorFile;
  mkdirSync(validatorCacheDir, { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), "tunewave-next-"));
  try {
    await run("npm", ["pack", validatorPackage, "--silent", "--pack-destination", work], {
      cwd: work,
      maxBuffer: 1 << 20,
    });
    const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack ${validatorPackage} wrote no tarball`);
    await run("tar", ["-xzf", path.join(work, tarball), "-C", work, validatorPathInPackage]);
    const extracted = path.join(work, validatorPathInPackage);
    const digest = sha256(extracted);
    if (digest !== validatorSha256) throw new Error(`${validatorPackage} validator has SHA-256 ${digest}`);
    // Rename is atomic: a concurrent run sees the whole file or none.
    renameSync(extracted, validatorFile);
    return validatorFile;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let instance: Promise<Validator> | undefined;

/** The validator, loaded once per process. */
export function ampValidator(): Promise<Validator> {
  instance ??= validatorPath().then((file) => {
    const amphtml = createRequire(import.meta.url)("amphtml-validator") as ValidatorModule;
    return amphtml.getInstance(file);
  });
  return instance;
}

/** Validates a document as AMP HTML. */
export async function validateAmp(html: string): Promise<AmpValidationResult> {
  return (await ampValidator()).validateString(html);
}

/** One line per error, for test failure messages. */
export function describeErrors(result: AmpValidationResult): string {
  return result.errors
    .map((error) => `${error.severity} ${error.line}:${error.col} ${error.message}`)
    .join("\n");
}
