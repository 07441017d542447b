import { expect, test } from "vitest";
import { defaultSite, parseRecognizeArgs, usage } from "#tools/recognize/args.ts";
import { main } from "#tools/recognize/recognize.ts";

// The command line of `npm run recognize`: flags, their defaults and the usage errors.

function options(argv: string[]) {
  const parsed = parseRecognizeArgs(argv);
  if (parsed.kind !== "run") throw new Error(`expected a run, got ${JSON.stringify(parsed)}`);
  return parsed.options;
}

function usageError(argv: string[]): string {
  const parsed = parseRecognizeArgs(argv);
  if (parsed.kind !== "usage") throw new Error(`expected a usage error, got ${JSON.stringify(parsed)}`);
  return parsed.message;
}

test("by default: the site of npm start, the site's checkpoints, tab-separated values", () => {
  expect(options(["a.wav", "b.mp3"])).toEqual({
    mode: { kind: "site", site: new URL(defaultSite) },
    seconds: null,
    json: false,
    files: ["a.wav", "b.mp3"],
  });
});

test("every flag, anywhere among the files", () => {
  expect(options(["a.wav", "--local", "--seconds", "6", "b.flac", "--json"])).toEqual({
    mode: { kind: "local" },
    seconds: 6,
    json: true,
    files: ["a.wav", "b.flac"],
  });
  expect(options(["--site", "https://tunewave.example/", "--seconds=4.5", "a.wav"])).toMatchObject({
    mode: { kind: "site", site: new URL("https://tunewave.example/") },
    seconds: 4.5,
  });
});

test("after --, a file name may start with a dash", () => {
  expect(options(["--local", "--", "-take-1.wav"]).files).toEqual(["-take-1.wav"]);
});

test.each(["3", "6", "9", "12", "0.5", "30"])("--seconds %s is taken", (seconds) => {
  expect(options(["--seconds", seconds, "a.wav"]).seconds).toBe(Number(seconds));
});

test.each(["0", "-3", "31", "abc", "", " ", "Infinity", "NaN", "1e999"])(
  "--seconds '%s' is refused",
  (seconds) => {
    expect(usageError([`--seconds=${seconds}`, "a.wav"])).toMatch(/--seconds needs a number/);
  },
);

test.each([
  [["--bogus", "a.wav"], /Unknown option '--bogus'/],
  [["a.wav", "--seconds"], /--seconds/],
  [["--local", "--site", "http://127.0.0.1:8787", "a.wav"], /exclude each other/],
  [["--site", "ftp://example.org", "a.wav"], /http or https/],
  [["--site", "not a url", "a.wav"], /http or https/],
  [["--local"], /No files/],
  [[], /No files/],
  [["--json=yes", "a.wav"], /--json/],
])("%j is a usage error", (argv, message) => {
  expect(usageError(argv)).toMatch(message);
});

test.each([["--help"], ["-h"], ["a.wav", "--help"]])("%j asks for the usage", (...argv) => {
  expect(parseRecognizeArgs(argv).kind).toBe("help");
});

test("a usage error prints the message and the usage on stderr and exits with 2", async () => {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(["--seconds", "forty", "a.wav"], {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
  });
  expect(status).toBe(2);
  expect(out).toEqual([]);
  expect(err.join("")).toBe(
    `recognize: --seconds needs a number of seconds above 0 and at most 30, not "forty"\n\n${usage}`,
  );
});

test("--help prints the usage on stdout and exits with 0", async () => {
  const out: string[] = [];
  const status = await main(["--help"], {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: () => {} },
  });
  expect(status).toBe(0);
  expect(out.join("")).toBe(usage);
  expect(usage).toContain("--local");
  expect(usage).toContain("Exit status");
});
