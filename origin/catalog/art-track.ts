import sharp from "sharp";
import { ArrayBufferTarget, Muxer } from "webm-muxer";
import { concat, type OggPage, oggCodecOf, parseOggPages } from "./ogg";

/**
 * An art track: the track's cover as a still picture over its preview audio, in WebM, made without
 * a video encoder. A lossy WebP's `VP8 ` chunk is a VP8 key frame, so sharp draws the frame; the
 * preview's Ogg packets go into the WebM unchanged (Opus or Vorbis), timed from their own headers.
 */

/** The video preview size of spec 002 §9. */
export const artTrackWidth = 520;
export const artTrackHeight = 280;
/** One key frame per cluster, this often, so a seek lands near where it was asked. */
export const keyFrameEveryMs = 2000;

export type ArtTrack = { webm: Uint8Array; poster: Buffer; durationMs: number };

/** The cover letterboxed on its own colour at 520x280: the poster (JPEG) and the frame (VP8). */
export async function artTrackPicture(
  cover: Buffer | string,
  colour: string,
): Promise<{ frame: Uint8Array; poster: Buffer }> {
  const side = artTrackHeight;
  const square = await sharp(cover).resize(side, side, { fit: "cover" }).toBuffer();
  const canvas = sharp({
    create: { width: artTrackWidth, height: artTrackHeight, channels: 3, background: colour },
  }).composite([{ input: square, left: (artTrackWidth - side) / 2, top: 0 }]);
  const flat = await canvas.png().toBuffer();
  const webp = await sharp(flat).webp({ quality: 80, alphaQuality: 100 }).toBuffer();
  const poster = await sharp(flat).jpeg({ quality: 84 }).toBuffer();
  return { frame: vp8FrameOfWebp(webp), poster };
}

/** The payload of a simple lossy WebP's `VP8 ` chunk: one VP8 key frame. */
export function vp8FrameOfWebp(webp: Uint8Array): Uint8Array {
  const text = (at: number) => String.fromCharCode(...webp.subarray(at, at + 4));
  if (text(0) !== "RIFF" || text(8) !== "WEBP") throw new Error("not a WebP file");
  const view = new DataView(webp.buffer, webp.byteOffset, webp.byteLength);
  for (let at = 12; at + 8 <= webp.length; ) {
    const size = view.getUint32(at + 4, true);
    if (text(at) === "VP8 ") return webp.slice(at + 8, at + 8 + size);
    at += 8 + size + (size % 2);
  }
  throw new Error("WebP without a lossy VP8 frame");
}

export type AudioPacket = { data: Uint8Array; timestampUs: number };
export type OggAudio = {
  codec: "A_OPUS" | "A_VORBIS";
  channels: number;
  sampleRate: number;
  codecPrivate: Uint8Array;
  packets: AudioPacket[];
  durationUs: number;
};

/** The packets of the first logical stream of an Ogg file, joined across pages. */
export function oggPackets(pages: OggPage[]): Uint8Array[] {
  const serial = pages[0]?.serial;
  const packets: Uint8Array[] = [];
  let open: Uint8Array[] = [];
  for (const page of pages) {
    if (page.serial !== serial) continue;
    let offset = 0;
    for (const lacing of page.segments) {
      open.push(page.body.subarray(offset, offset + lacing));
      offset += lacing;
      if (lacing < 255) {
        packets.push(concat(open));
        open = [];
      }
    }
  }
  return packets;
}

/** An Ogg Opus or Vorbis stream as WebM wants it: CodecPrivate and timed packets. */
export function oggAudio(bytes: Uint8Array): OggAudio {
  const pages = parseOggPages(bytes);
  const first = pages[0];
  if (!first) throw new Error("empty Ogg stream");
  const codec = oggCodecOf(first);
  const packets = oggPackets(pages);
  if (codec.codec === "opus") {
    // OpusHead is the CodecPrivate; OpusTags is not carried. Every packet says its own length.
    const [head, , ...audio] = packets;
    if (!head) throw new Error("Opus stream without OpusHead");
    return timed("A_OPUS", codec.channels, 48_000, head, audio, opusPacketSamples);
  }
  const [id, comment, setup, ...audio] = packets;
  if (!id || !comment || !setup) throw new Error("Vorbis stream without its three headers");
  return timed(
    "A_VORBIS",
    codec.channels,
    codec.sampleRate,
    xiphLace([id, comment, setup]),
    audio,
    vorbisPacketSamples(id, setup),
  );
}

function timed(
  codec: OggAudio["codec"],
  channels: number,
  sampleRate: number,
  codecPrivate: Uint8Array,
  audio: Uint8Array[],
  samplesOf: (packet: Uint8Array) => number,
): OggAudio {
  let samples = 0;
  const packets = audio
    .filter((data) => data.length > 0)
    .map((data) => {
      const timestampUs = Math.round((samples * 1e6) / sampleRate);
      samples += samplesOf(data);
      return { data, timestampUs };
    });
  return {
    codec,
    channels,
    sampleRate,
    codecPrivate,
    packets,
    durationUs: Math.round((samples * 1e6) / sampleRate),
  };
}

/** Samples (at 48 kHz) in an Opus packet, from its TOC byte (RFC 6716 §3.1). */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0] ?? 0;
  const config = toc >> 3;
  const frameTenthsMs =
    config < 12
      ? [100, 200, 400, 600][config % 4]
      : config < 16
        ? [100, 200][config % 2]
        : [25, 50, 100, 200][config % 4];
  const count = [1, 2, 2, (packet[1] ?? 0) & 0x3f][toc & 3] ?? 1;
  return ((frameTenthsMs ?? 200) * 48 * count) / 10;
}

/**
 * A Vorbis packet's sample count: (previous block + this block) / 4, the first packet none. The
 * block size of a packet is its mode's flag; the modes are the last field of the setup header,
 * found by reading it backwards from its framing bit (as FFmpeg's vorbis parser does).
 */
export function vorbisPacketSamples(id: Uint8Array, setup: Uint8Array): (packet: Uint8Array) => number {
  const sizes = [1 << ((id[28] ?? 0) & 0x0f), 1 << ((id[28] ?? 0) >> 4)] as const;
  const modeFlags = vorbisModeBlockFlags(setup);
  const modeBits = Math.ceil(Math.log2(modeFlags.length));
  let previous = 0;
  return (packet) => {
    const mode = modeFlags.length === 1 ? 0 : ((packet[0] ?? 0) >> 1) & ((1 << modeBits) - 1);
    const size = sizes[modeFlags[mode] ? 1 : 0];
    const samples = previous === 0 ? 0 : (previous + size) / 4;
    previous = size;
    return samples;
  };
}

export function vorbisModeBlockFlags(setup: Uint8Array): boolean[] {
  const reversed = Uint8Array.from(setup).reverse();
  let position = 0;
  const bit = () => {
    const value = ((reversed[position >> 3] ?? 0) >> (7 - (position & 7))) & 1;
    position++;
    return value;
  };
  const bits = (n: number) => {
    let value = 0;
    for (let i = 0; i < n; i++) value = (value << 1) | bit();
    return value;
  };
  const total = reversed.length * 8;
  while (position < total - 97 && bit() === 0);
  const framing = position;
  let count = 0;
  let found = 0;
  while (total - position >= 97) {
    if (bits(8) > 63 || bits(16) !== 0 || bits(16) !== 0) break;
    bit();
    count++;
    if (count > 64) break;
    const saved = position;
    if (bits(6) + 1 === count) found = count;
    position = saved;
  }
  if (found === 0) throw new Error("Vorbis setup header without modes");
  position = framing;
  const flags: boolean[] = new Array(found);
  for (let i = found - 1; i >= 0; i--) {
    bits(40);
    flags[i] = bit() === 1;
  }
  return flags;
}

/** Matroska's Xiph lacing of the three Vorbis headers. */
function xiphLace(headers: Uint8Array[]): Uint8Array {
  const sizes: number[] = [headers.length - 1];
  for (const header of headers.slice(0, -1)) {
    let n = header.length;
    while (n >= 255) {
      sizes.push(255);
      n -= 255;
    }
    sizes.push(n);
  }
  return concat([Uint8Array.from(sizes), ...headers]);
}

/** Muxes a still VP8 frame (repeated as a key frame every 2 s) over the audio. */
export function muxArtTrack(frame: Uint8Array, audio: OggAudio): Uint8Array {
  const muxer = new Muxer({
    target: new ArrayBufferTarget(),
    type: "webm",
    video: {
      codec: "V_VP8",
      width: artTrackWidth,
      height: artTrackHeight,
      frameRate: 1000 / keyFrameEveryMs,
    },
    audio: { codec: audio.codec, numberOfChannels: audio.channels, sampleRate: audio.sampleRate },
  });
  const frameTimes: number[] = [];
  for (let t = 0; t < audio.durationUs; t += keyFrameEveryMs * 1000) frameTimes.push(t);
  let next = 0;
  const meta = {
    decoderConfig: {
      codec: audio.codec,
      description: audio.codecPrivate,
      numberOfChannels: audio.channels,
      sampleRate: audio.sampleRate,
    },
  };
  let first = true;
  for (const packet of audio.packets) {
    while (next < frameTimes.length && (frameTimes[next] ?? 0) <= packet.timestampUs) {
      muxer.addVideoChunkRaw(frame, "key", frameTimes[next] ?? 0);
      next++;
    }
    muxer.addAudioChunkRaw(packet.data, "key", packet.timestampUs, first ? meta : undefined);
    first = false;
  }
  // The last picture holds until the sound ends.
  muxer.addVideoChunkRaw(frame, "key", audio.durationUs);
  muxer.finalize();
  return new Uint8Array(muxer.target.buffer);
}

/** The art track of a preview: poster and WebM. */
export async function artTrack(
  cover: Buffer | string,
  colour: string,
  preview: Uint8Array,
): Promise<ArtTrack> {
  const { frame, poster } = await artTrackPicture(cover, colour);
  const audio = oggAudio(preview);
  return { webm: muxArtTrack(frame, audio), poster, durationMs: Math.round(audio.durationUs / 1000) };
}
