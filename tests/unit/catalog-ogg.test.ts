import fs from "node:fs";
import path from "node:path";
import { OggVorbisDecoder } from "@wasm-audio-decoders/ogg-vorbis";
import { expect, test } from "vitest";
import { cutOggClip, type OggPage, oggCrc, parseOggPages, serializeOggPage } from "#origin/catalog/ogg.ts";

const noGranule = 0xffff_ffff_ffff_ffffn;

function vorbisIdentification(sampleRate: number): Uint8Array {
  const packet = new Uint8Array(30);
  packet[0] = 1;
  packet.set(
    [..."vorbis"].map((ch) => ch.charCodeAt(0)),
    1,
  );
  packet[11] = 2;
  new DataView(packet.buffer).setUint32(12, sampleRate, true);
  return packet;
}

function page(sequence: number, granule: bigint, segments: number[], headerType = 0): OggPage {
  const length = segments.reduce((s, x) => s + x, 0);
  return { headerType, granule, serial: 7, sequence, segments, body: new Uint8Array(length).fill(sequence) };
}

/** A synthetic Vorbis stream at 1000 Hz: two header pages, then one page per second. */
function stream(dataPages: OggPage[]): Uint8Array {
  const head = { ...page(0, 0n, [30], 0x02), body: vorbisIdentification(1000) };
  const parts = [head, page(1, 0n, [255, 40]), ...dataPages].map(serializeOggPage);
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

test("the Ogg CRC is CRC-32 with polynomial 04C11DB7, no reflection, initial value and final xor 0", () => {
  // The POSIX cksum check value 0x765E7680 is the same CRC with a final xor of FFFFFFFF.
  expect(oggCrc(new TextEncoder().encode("123456789"))).toBe((0x765e7680 ^ 0xffffffff) >>> 0);
});

test("a serialized page parses back to the same page with a valid CRC", () => {
  const original = page(3, 12345n, [255, 255, 10], 0x00);
  const bytes = serializeOggPage(original);
  const [parsed] = parseOggPages(bytes);
  expect(parsed).toMatchObject({ granule: 12345n, serial: 7, sequence: 3, segments: [255, 255, 10] });
  expect(parsed?.body).toEqual(original.body);
  const zeroed = bytes.slice();
  zeroed.fill(0, 22, 26);
  expect(new DataView(bytes.buffer).getUint32(22, true)).toBe(oggCrc(zeroed));
});

test("a clip keeps the header pages and the data pages up to the granule limit, and ends the stream", () => {
  const data = [1, 2, 3, 4, 5].map((second) => page(1 + second, BigInt(second * 1000), [100]));
  const clip = cutOggClip(stream(data), 3);
  const pages = parseOggPages(clip.bytes);
  expect(pages.map((p) => p.granule)).toEqual([0n, 0n, 1000n, 2000n, 3000n]);
  expect(clip.seconds).toBe(3);
  expect(pages.at(-1)?.headerType).toBe(0x04);
  expect(pages.slice(0, -1).every((p) => (p.headerType & 0x04) === 0)).toBe(true);
});

test("a packet left open on the last kept page is dropped, and pages without a granule are not kept last", () => {
  const data = [
    page(2, 1000n, [100]),
    page(3, 2000n, [100, 255]), // a packet that continues on the next page
    page(4, noGranule, [255]),
    page(5, 4000n, [20]),
  ];
  const pages = parseOggPages(cutOggClip(stream(data), 3).bytes);
  expect(pages.at(-1)?.segments).toEqual([100]);
  expect(pages.at(-1)?.body.length).toBe(100);
  expect(pages.at(-1)?.granule).toBe(2000n);
});

test("a stream that starts at a negative granule position is cut at its limit", () => {
  const data = [page(2, 2n ** 64n - 104n, [100]), page(3, 1000n, [100]), page(4, 2000n, [100])];
  const pages = parseOggPages(cutOggClip(stream(data), 1).bytes);
  expect(pages.map((p) => p.granule)).toEqual([0n, 0n, 2n ** 64n - 104n, 1000n]);
});

test("a recording shorter than the clip is kept whole", () => {
  const data = [page(2, 1000n, [50]), page(3, 1500n, [50], 0x04)];
  const clip = cutOggClip(stream(data), 30);
  expect(parseOggPages(clip.bytes).length).toBe(4);
  expect(clip.seconds).toBe(1.5);
});

test("a stream that is not Vorbis or Opus is refused", () => {
  const bytes = serializeOggPage(page(0, 0n, [30], 0x02));
  expect(() => cutOggClip(bytes, 30)).toThrow(/not an Ogg Vorbis or Ogg Opus stream/);
});

// A real recording, committed so this test always runs: the first 3.8 s (64 KiB) of "battle-epic.ogg"
// by the Battle for Wesnoth project, from Debian's wesnoth-1.16-music package
// (usr/share/games/wesnoth/1.16/data/core/music/battle-epic.ogg; GPL-2+, see that package's
// debian/copyright), cut at an Ogg page boundary by cutOggClip itself, as the catalogue cuts its
// previews (no re-encoding).
const realRecording = path.join(import.meta.dirname, "fixtures/battle-epic-start.ogg");

test("a clip cut from a real recording decodes to the length asked for", async () => {
  const recording = new Uint8Array(fs.readFileSync(realRecording));
  const clip = cutOggClip(recording, 2);
  const decoder = new OggVorbisDecoder();
  await decoder.ready;
  const decoded = await decoder.decodeFile(clip.bytes);
  decoder.free();
  expect(decoded.errors).toEqual([]);
  expect(Math.abs(decoded.samplesDecoded / decoded.sampleRate - 2)).toBeLessThan(0.25);
  expect(clip.bytes.length).toBeLessThan(recording.length);
});
