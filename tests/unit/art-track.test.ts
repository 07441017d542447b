import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { expect, test } from "vitest";
import {
  artTrack,
  artTrackHeight,
  artTrackWidth,
  keyFrameEveryMs,
  oggAudio,
  opusPacketSamples,
  vp8FrameOfWebp,
} from "#origin/catalog/art-track.ts";
import { oggCodecOf, parseOggPages } from "#origin/catalog/ogg.ts";

// The art track's WebM read back with a small EBML reader: what Chromium's demuxer needs (the
// header, both tracks with their codec data, a key frame opening every cluster, cues) and timing
// that agrees with the Ogg stream's own granule positions, for an Opus and a Vorbis preview.

const root = path.resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "origin/catalog/dist/catalog.json"), "utf8")) as {
  tracks: { key: number; codec: "opus" | "vorbis" }[];
};

type Element = { id: number; data: Uint8Array; children?: Element[] };
const containers = new Set([
  0x1a45dfa3, 0x18538067, 0x1654ae6b, 0xae, 0xe0, 0xe1, 0x1f43b675, 0x1c53bb6b, 0xbb, 0xb7,
]);

function vint(bytes: Uint8Array, at: number, keepMarker: boolean): [number, number] {
  const first = bytes[at] ?? 0;
  const length = Math.clz32(first) - 23;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + (bytes[at + i] ?? 0);
  return [value, length];
}

function readElements(bytes: Uint8Array): Element[] {
  const out: Element[] = [];
  for (let at = 0; at < bytes.length; ) {
    const [id, idLength] = vint(bytes, at, true);
    const [size, sizeLength] = vint(bytes, at + idLength, false);
    const data = bytes.subarray(at + idLength + sizeLength, at + idLength + sizeLength + size);
    out.push(containers.has(id) ? { id, data, children: readElements(data) } : { id, data });
    at += idLength + sizeLength + size;
  }
  return out;
}

const all = (elements: Element[] | undefined, id: number) => (elements ?? []).filter((e) => e.id === id);
const one = (elements: Element[] | undefined, id: number) => all(elements, id)[0];
const uint = (e: Element | undefined) => (e ? [...e.data].reduce((v, b) => v * 256 + b, 0) : undefined);
const text = (e: Element | undefined) => (e ? new TextDecoder().decode(e.data) : undefined);

async function cover(): Promise<Buffer> {
  return sharp({ create: { width: 300, height: 300, channels: 3, background: "#c04020" } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="300" height="300"><circle cx="150" cy="150" r="90" fill="#fff"/></svg>',
        ),
      },
    ])
    .jpeg()
    .toBuffer();
}

test("a lossy WebP's VP8 chunk is a VP8 key frame of the art track's size", async () => {
  const webp = await sharp(await cover())
    .resize(artTrackWidth, artTrackHeight)
    .webp()
    .toBuffer();
  const frame = vp8FrameOfWebp(webp);
  // RFC 6386 §9.1: a key frame has bit 0 clear, then the start code 9d 01 2a and the size.
  expect((frame[0] ?? 1) & 1).toBe(0);
  expect([...frame.subarray(3, 6)]).toEqual([0x9d, 0x01, 0x2a]);
  const view = new DataView(frame.buffer, frame.byteOffset);
  expect([view.getUint16(6, true) & 0x3fff, view.getUint16(8, true) & 0x3fff]).toEqual([520, 280]);
  const lossless = await sharp(await cover())
    .webp({ lossless: true })
    .toBuffer();
  expect(() => vp8FrameOfWebp(lossless)).toThrow("WebP without a lossy VP8 frame");
});

test.each([
  ["SILK 20 ms, one frame", [0b00001_0_00], 960],
  ["SILK 60 ms, two frames", [0b00011_0_01], 5760],
  ["Hybrid 10 ms, two frames of different sizes", [0b01100_0_10], 960],
  ["CELT 2.5 ms, one frame", [0b10000_0_00], 120],
  ["CELT 20 ms, three frames (code 3)", [0b11111_0_11, 3], 2880],
])("an Opus packet's length from its TOC: %s", (_, packet, samples) => {
  expect(opusPacketSamples(Uint8Array.from(packet))).toBe(samples);
});

test.each(["opus", "vorbis"] as const)(
  "the art track of a %s preview: header, tracks, key frames, cues, timing",
  async (codec) => {
    const track = manifest.tracks.find((t) => t.codec === codec);
    if (!track) throw new Error(`the catalogue has no ${codec} track`);
    const preview = new Uint8Array(
      fs.readFileSync(path.join(root, "public/media/previews", `${track.key}.ogg`)),
    );
    const made = await artTrack(await cover(), "#c04020", preview);

    const [ebml, segment] = readElements(made.webm);
    expect(text(one(ebml?.children, 0x4282))).toBe("webm");
    const tracks = one(segment?.children, 0x1654ae6b)?.children ?? [];
    const entries = all(tracks, 0xae).map((e) => e.children ?? []);
    const video = entries.find((e) => text(one(e, 0x86)) === "V_VP8");
    const audio = entries.find((e) => text(one(e, 0x86)) === (codec === "opus" ? "A_OPUS" : "A_VORBIS"));
    expect(uint(one(one(video, 0xe0)?.children, 0xb0))).toBe(520);
    expect(uint(one(one(video, 0xe0)?.children, 0xba))).toBe(280);
    const codecPrivate = one(audio, 0x63a2)?.data ?? new Uint8Array();
    if (codec === "opus") expect(text({ id: 0, data: codecPrivate.subarray(0, 8) })).toBe("OpusHead");
    else expect(codecPrivate[0]).toBe(2); // Xiph lacing of the three Vorbis headers

    const videoNumber = uint(one(video, 0xd7));
    const clusters = all(segment?.children, 0x1f43b675);
    const clusterTimes = clusters.map((c) => uint(one(c.children, 0xe7)) ?? -1);
    expect(clusters.length).toBeGreaterThanOrEqual(Math.floor(made.durationMs / keyFrameEveryMs));
    for (const [i, cluster] of clusters.entries()) {
      const first = one(cluster.children, 0xa3)?.data ?? new Uint8Array();
      // A SimpleBlock: track number (vint), 16-bit relative time, flags (0x80 key frame).
      expect(vint(first, 0, false)[0], `cluster ${i} opens with the picture`).toBe(videoNumber);
      expect((first[3] ?? 0) & 0x80).toBe(0x80);
      if (i > 0)
        expect((clusterTimes[i] ?? 0) - (clusterTimes[i - 1] ?? 0)).toBeLessThanOrEqual(keyFrameEveryMs);
    }
    expect(all(one(segment?.children, 0x1c53bb6b)?.children, 0xbb).length).toBe(clusters.length);

    // The packets' own lengths add up to what the Ogg stream's last granule position says.
    const pages = parseOggPages(preview);
    const firstPage = pages[0];
    if (!firstPage) throw new Error("an empty preview");
    const head = oggCodecOf(firstPage);
    const lastGranule = Number(pages.at(-1)?.granule ?? 0n);
    const expectedMs = ((lastGranule - (codec === "opus" ? 0 : head.preSkip)) / head.sampleRate) * 1000;
    expect(Math.abs(made.durationMs - expectedMs)).toBeLessThan(25);
    const audioBlocks = clusters
      .flatMap((c) => all(c.children, 0xa3))
      .filter((b) => vint(b.data, 0, false)[0] !== videoNumber);
    expect(audioBlocks.length).toBe(oggAudio(preview).packets.length);

    // Deterministic: the same inputs give the same bytes.
    expect(
      Buffer.from((await artTrack(await cover(), "#c04020", preview)).webm).equals(Buffer.from(made.webm)),
    ).toBe(true);
  },
);
