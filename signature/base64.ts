const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/** Standard base64 with padding; the same in the browser, workerd and Node without their globals. */
export function bytesToBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = i + 1 < bytes.length ? (bytes[i + 1] as number) : 0;
    const c = i + 2 < bytes.length ? (bytes[i + 2] as number) : 0;
    const triple = (a << 16) | (b << 8) | c;
    chunk +=
      ALPHABET.charAt((triple >> 18) & 63) +
      ALPHABET.charAt((triple >> 12) & 63) +
      (i + 1 < bytes.length ? ALPHABET.charAt((triple >> 6) & 63) : "=") +
      (i + 2 < bytes.length ? ALPHABET.charAt(triple & 63) : "=");
    if (chunk.length >= 4096) {
      parts.push(chunk);
      chunk = "";
    }
  }
  parts.push(chunk);
  return parts.join("");
}

/** Strict decoding: length a multiple of 4, padding only at the end, no other characters; else null. */
export function base64ToBytes(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let out = 0;
  for (let i = 0; i < text.length; i += 4) {
    let triple = 0;
    for (let j = 0; j < 4; j++) {
      const code = text.charCodeAt(i + j);
      const isPad = code === 61 && i + 4 === text.length && j >= 4 - padding;
      const value = isPad ? 0 : code < 128 ? (VALUES[code] as number) : -1;
      if (value < 0) return null;
      triple = (triple << 6) | value;
    }
    if (out < bytes.length) bytes[out++] = (triple >> 16) & 255;
    if (out < bytes.length) bytes[out++] = (triple >> 8) & 255;
    if (out < bytes.length) bytes[out++] = triple & 255;
  }
  return bytes;
}
