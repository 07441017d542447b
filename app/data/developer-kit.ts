// The developer kit's example as /developers shows it: tools/developer-kit/example.ts, the file
// itself (tests/unit/site-pages-rules.test.ts keeps the two the same; the file is typechecked and run).
export const developerKitExample =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the example's own source, template literals and all.
  '// The developer kit\'s example (shown on /developers): sign a recording with the signature module\n// and ask the match service which song it is.\n//   npx vite-node tools/developer-kit/example.ts recording.wav [http://127.0.0.1:8787]\nimport { readFile } from "node:fs/promises";\nimport { computeSignature, encodeSignatureBase64 } from "../../signature";\nimport { decodeAudio } from "../audio/decode";\n\nconst [file, site = "http://127.0.0.1:8787"] = process.argv.slice(2);\nif (!file) throw new Error("usage: example.ts <recording> [site]");\n\n// Decode (WAV, Ogg, Opus, MP3 or FLAC) and sign the first 12 seconds.\nconst { samples, sampleRate } = await decodeAudio(new Uint8Array(await readFile(file)));\nconst signature = computeSignature(samples.subarray(0, 12 * sampleRate), sampleRate);\n\nconst response = await fetch(new URL("/services/webrec/match", site), {\n  method: "POST",\n  headers: { "content-type": "application/json" },\n  body: JSON.stringify({\n    data: encodeSignatureBase64(signature),\n    sessionId: crypto.randomUUID(),\n    lang: "en",\n    country: "GB",\n  }),\n});\nconst { matches } = (await response.json()) as {\n  matches: { trackId: string; weburl: string; offset: number }[];\n};\nconst [best] = matches;\nconsole.log(best ? `${best.weburl} (from ${best.offset} ms)` : "no match");\n';

/** How to run the example from a checkout of the project. */
export const developerKitExampleCommand = "npx vite-node tools/developer-kit/example.ts recording.wav";

/** The command-line recogniser (README "Recognise files from the command line"). */
export const recognizeCommand = "npm run recognize -- --site https://your-site.example recording.wav";
