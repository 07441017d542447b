import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import * as v from "valibot";
import { findJava } from "#scripts/java.mjs";

// The Nu HTML checker (npm vnu-jar) on Debian's Java, offline: one JVM start for all documents.

const jar = path.resolve("node_modules/vnu-jar/build/dist/vnu.jar");

const reportSchema = v.object({
  messages: v.array(
    v.object({
      type: v.string(),
      subType: v.optional(v.string()),
      url: v.optional(v.string()),
      lastLine: v.optional(v.number()),
      message: v.string(),
      extract: v.optional(v.string()),
    }),
  ),
});

/**
 * The CSS checker's false alarm on a custom property inside `calc()` (valid CSS, as in
 * `calc(100vw - 2 * var(--space-4))`: it does not resolve `var()` and then calls the types
 * incompatible), and only that: its extract shows the `var()` it stopped at.
 */
function isVarInCalcAlarm(message: string, extract: string | undefined): boolean {
  return /^CSS: .*The types are incompatible\.$/.test(message) && /var\(--/.test(extract ?? "");
}

/** Each document's errors, by name, as "line N: message"; the false alarms above aside. */
export async function checkDocuments(documents: ReadonlyMap<string, string>): Promise<Map<string, string[]>> {
  const java = findJava();
  if (!java) {
    throw new Error(
      "Java is needed for the Nu HTML checker: run `apt-get install -y default-jre-headless` (as root) or set JAVA_PATH.",
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), "nu-html-"));
  try {
    const files = [...documents].map(([name, html]) => {
      const file = path.join(dir, `${name}.html`);
      writeFileSync(file, html);
      return file;
    });
    const { stderr } = await promisify(execFile)(
      java,
      ["-jar", jar, "--format", "json", "--exit-zero-always", ...files],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const report = v.parse(reportSchema, JSON.parse(stderr));
    const errors = new Map([...documents.keys()].map((name) => [name, [] as string[]]));
    for (const message of report.messages) {
      if (message.type !== "error" && message.type !== "non-document-error") continue;
      if (isVarInCalcAlarm(message.message, message.extract)) continue;
      const name = path.basename(new URL(message.url ?? "file:///unknown.html").pathname, ".html");
      errors
        .get(name)
        ?.push(`line ${message.lastLine ?? "?"}: ${message.message} [${message.extract ?? ""}]`);
    }
    return errors;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
