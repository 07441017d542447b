// Finds Debian's Java for the Nu HTML checker (vnu-jar) the browser tests run
// (scripts/debian-program.mjs).
import { ensureProgram, findProgram } from "./debian-program.mjs";

const java = {
  what: "Java (for the Nu HTML checker)",
  packageName: "default-jre-headless",
  paths: [process.env.JAVA_PATH, "/usr/bin/java"],
  orSet: "JAVA_PATH",
};

export function findJava() {
  return findProgram(java);
}

export function ensureJava() {
  return ensureProgram(java);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureJava());
