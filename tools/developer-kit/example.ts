// The developer kit's example (shown on /developers): sign a recording with the signature module
// and ask the match service which song it is.
//   npx vite-node tools/developer-kit/example.ts recording.wav [http://127.0.0.1:8787]
import { readFile } from "node:fs/promises";
import { decodeAudio } from "#origin/catalog/audio-decode.ts";
import { computeSignature, encodeSignatureBase64 } from "#signature/index.ts";

const [file, site = "http://127.0.0.1:8787"] = process.argv.slice(2);
if (!file) throw new Error("usage: example.ts <recording> [site]");

// Decode (WAV, Ogg, Opus, MP3 or FLAC) and sign the first 12 seconds.
const { samples, sampleRate } = await decodeAudio(new Uint8Array(await readFile(file)));
const signature = computeSignature(samples.subarray(0, 12 * sampleRate), sampleRate);

const response = await fetch(new URL("/services/webrec/match", site), {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    data: encodeSignatureBase64(signature),
    sessionId: crypto.randomUUID(),
    lang: "en",
    country: "GB",
  }),
});
const { matches } = (await response.json()) as {
  matches: { trackId: string; weburl: string; offset: number }[];
};
const [best] = matches;
console.log(best ? `${best.weburl} (from ${best.offset} ms)` : "no match");
