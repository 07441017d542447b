/**
 * Ogg page reading and preview cutting (RFC 3533). A preview is the original stream's header
 * pages plus its data pages up to a granule position, so no audio encoder is needed.
 */

export type OggPage = {
  headerType: number;
  granule: bigint;
  serial: number;
  sequence: number;
  segments: number[];
  body: Uint8Array;
};

export type OggCodec = { codec: "vorbis" | "opus"; sampleRate: number; preSkip: number; channels: number };

const capture = [0x4f, 0x67, 0x67, 0x53]; // "OggS"
const flagEndOfStream = 0x04;
const noGranule = 0xffff_ffff_ffff_ffffn;

export function parseOggPages(data: Uint8Array): OggPage[] {
  const pages: OggPage[] = [];
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 0;
  while (offset + 27 <= data.length) {
    if (!capture.every((byte, i) => data[offset + i] === byte))
      throw new Error(`no Ogg page at byte ${offset}`);
    const segmentCount = data[offset + 26] ?? 0;
    const segments = Array.from(data.subarray(offset + 27, offset + 27 + segmentCount));
    const bodyStart = offset + 27 + segmentCount;
    const bodyLength = segments.reduce((sum, lacing) => sum + lacing, 0);
    if (bodyStart + bodyLength > data.length) throw new Error(`truncated Ogg page at byte ${offset}`);
    pages.push({
      headerType: data[offset + 5] ?? 0,
      granule: view.getBigUint64(offset + 6, true),
      serial: view.getUint32(offset + 14, true),
      sequence: view.getUint32(offset + 18, true),
      segments,
      body: data.subarray(bodyStart, bodyStart + bodyLength),
    });
    offset = bodyStart + bodyLength;
  }
  return pages;
}

export function serializeOggPage(page: OggPage): Uint8Array {
  const out = new Uint8Array(27 + page.segments.length + page.body.length);
  const view = new DataView(out.buffer);
  out.set(capture, 0);
  out[4] = 0;
  out[5] = page.headerType;
  view.setBigUint64(6, page.granule, true);
  view.setUint32(14, page.serial, true);
  view.setUint32(18, page.sequence, true);
  out[26] = page.segments.length;
  out.set(page.segments, 27);
  out.set(page.body, 27 + page.segments.length);
  view.setUint32(22, oggCrc(out), true);
  return out;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let r = n << 24;
  for (let i = 0; i < 8; i++) r = r & 0x8000_0000 ? (r << 1) ^ 0x04c1_1db7 : r << 1;
  return r >>> 0;
});

/** The Ogg CRC-32 (polynomial 0x04c11db7, unreflected, initial 0) of a page whose CRC field is 0. */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (crcTable[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

/** Reads the codec from the identification header on the first page. */
export function oggCodecOf(firstPage: OggPage): OggCodec {
  const b = firstPage.body;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const text = (start: number, length: number) => String.fromCharCode(...b.subarray(start, start + length));
  if (b[0] === 1 && text(1, 6) === "vorbis") {
    return { codec: "vorbis", channels: b[11] ?? 0, sampleRate: view.getUint32(12, true), preSkip: 0 };
  }
  if (text(0, 8) === "OpusHead") {
    // Opus granule positions always count 48 kHz samples, whatever the input rate was.
    return { codec: "opus", channels: b[9] ?? 0, sampleRate: 48_000, preSkip: view.getUint16(10, true) };
  }
  throw new Error("not an Ogg Vorbis or Ogg Opus stream");
}

export type OggClip = { bytes: Uint8Array; codec: OggCodec; seconds: number };

/**
 * Cuts the first `seconds` of an Ogg Vorbis or Opus stream: all header pages (granule 0), then data
 * pages whose granule position is within the limit. A packet left open at the end is dropped, and
 * the last page is marked end-of-stream with its CRC recomputed.
 */
export function cutOggClip(data: Uint8Array, seconds: number): OggClip {
  const pages = parseOggPages(data);
  const first = pages[0];
  if (!first) throw new Error("empty Ogg stream");
  const codec = oggCodecOf(first);
  const limit = BigInt(codec.preSkip) + BigInt(Math.round(seconds * codec.sampleRate));

  const kept: OggPage[] = [];
  let inHeaders = true;
  for (const page of pages) {
    if (page.serial !== first.serial) break;
    if (inHeaders && page.granule === 0n) {
      kept.push(page);
      continue;
    }
    inHeaders = false;
    // Signed: a stream may start at a negative granule (samples its decoder drops; hyperrogue's
    // hr-savino-*.ogg start at -104).
    if (page.granule !== noGranule && BigInt.asIntN(64, page.granule) > limit) break;
    kept.push(page);
  }
  while (kept.length > 0 && kept.at(-1)?.granule === noGranule) kept.pop();
  const last = kept.at(-1);
  if (!last || last.granule === 0n) throw new Error("no audio pages within the clip");

  const closed = closeLastPacket(last);
  kept[kept.length - 1] = { ...closed, headerType: closed.headerType | flagEndOfStream };
  const bytes = concat(kept.map(serializeOggPage));
  const lastGranule = kept.at(-1)?.granule ?? 0n;
  return { bytes, codec, seconds: Number(lastGranule - BigInt(codec.preSkip)) / codec.sampleRate };
}

/** Drops the trailing segments of a packet that continues on the next page. */
function closeLastPacket(page: OggPage): OggPage {
  let end = page.segments.length;
  while (end > 0 && page.segments[end - 1] === 255) end--;
  if (end === page.segments.length) return page;
  const segments = page.segments.slice(0, end);
  const length = segments.reduce((sum, lacing) => sum + lacing, 0);
  return { ...page, segments, body: page.body.subarray(0, length) };
}

/** The parts one after another, in one array. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
