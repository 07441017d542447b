/**
 * The origin's check of a WebAuthn registration (W3C WebAuthn Level 2 §7.1, the steps a relying
 * party needs for "was the person verified on this device"): the client data names our challenge,
 * the site's origin and `webauthn.create`; the authenticator data is for our RP ID and has the
 * user-present and user-verified flags. Attestation is "none" (no vendor certificate is asked
 * for), so nothing here proves which authenticator it was: decision 022 says why that is enough.
 */

export type RegistrationCheck =
  | { ok: true }
  | {
      ok: false;
      reason: "malformed" | "type" | "challenge" | "origin" | "rpid" | "presence" | "verification";
    };

/** authenticatorData flags (§6.1): UP bit 0, UV bit 2. */
const userPresent = 0x01;
const userVerified = 0x04;

export function base64UrlDecode(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  try {
    return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

type CborValue = number | string | Uint8Array | CborValue[] | Map<CborValue, CborValue> | boolean | null;

/**
 * A small CBOR reader (RFC 8949) for the attestation object: unsigned and negative integers, byte
 * and text strings, arrays, maps, and the simple values; no tags, floats or indefinite lengths,
 * which a "none" attestation object does not use. Throws on anything else.
 */
export function decodeCbor(bytes: Uint8Array): CborValue {
  let at = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  function length(info: number): number {
    if (info < 24) return info;
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : 0;
    if (size === 0 || at + size > bytes.length) throw new Error("unsupported CBOR length");
    const value = size === 1 ? view.getUint8(at) : size === 2 ? view.getUint16(at) : view.getUint32(at);
    at += size;
    return value;
  }
  function take(count: number): Uint8Array {
    if (at + count > bytes.length) throw new Error("CBOR runs past its end");
    const slice = bytes.subarray(at, at + count);
    at += count;
    return slice;
  }
  function item(depth: number): CborValue {
    if (depth > 8 || at >= bytes.length) throw new Error("malformed CBOR");
    const initial = bytes[at++] as number;
    const major = initial >> 5;
    const info = initial & 0x1f;
    switch (major) {
      case 0:
        return length(info);
      case 1:
        return -1 - length(info);
      case 2:
        return take(length(info)).slice();
      case 3:
        return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(take(length(info)));
      case 4:
        return Array.from({ length: length(info) }, () => item(depth + 1));
      case 5: {
        const map = new Map<CborValue, CborValue>();
        const count = length(info);
        for (let index = 0; index < count; index += 1) map.set(item(depth + 1), item(depth + 1));
        return map;
      }
      case 7:
        if (info === 20) return false;
        if (info === 21) return true;
        if (info === 22) return null;
        throw new Error("unsupported CBOR simple value");
      default:
        throw new Error("unsupported CBOR type");
    }
  }
  const value = item(0);
  if (at !== bytes.length) throw new Error("bytes after the CBOR item");
  return value;
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/**
 * Checks a registration answer (`clientDataJSON` and `attestationObject`, base64url) against the
 * challenge we issued and the site's origin; the RP ID is the origin's host name, the browser's
 * default when the page names none.
 */
export async function checkRegistration(input: {
  clientDataJSON: string;
  attestationObject: string;
  challenge: string;
  origin: string;
}): Promise<RegistrationCheck> {
  const clientBytes = base64UrlDecode(input.clientDataJSON);
  const attestationBytes = base64UrlDecode(input.attestationObject);
  if (!clientBytes || !attestationBytes) return { ok: false, reason: "malformed" };
  let clientData: { type?: unknown; challenge?: unknown; origin?: unknown };
  let authData: CborValue | undefined;
  try {
    clientData = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(clientBytes));
    const attestation = decodeCbor(attestationBytes);
    authData = attestation instanceof Map ? attestation.get("authData") : undefined;
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (
    !(authData instanceof Uint8Array) ||
    authData.length < 37 ||
    typeof clientData !== "object" ||
    !clientData
  )
    return { ok: false, reason: "malformed" };
  if (clientData.type !== "webauthn.create") return { ok: false, reason: "type" };
  if (clientData.challenge !== input.challenge) return { ok: false, reason: "challenge" };
  if (clientData.origin !== input.origin) return { ok: false, reason: "origin" };
  const rpIdHash = await sha256(new URL(input.origin).hostname);
  if (!equalBytes(authData.subarray(0, 32), rpIdHash)) return { ok: false, reason: "rpid" };
  const flags = authData[32] as number;
  if ((flags & userPresent) === 0) return { ok: false, reason: "presence" };
  if ((flags & userVerified) === 0) return { ok: false, reason: "verification" };
  return { ok: true };
}

/** The challenge a registration answer's client data names, to look it up; undefined if unreadable. */
export function challengeOfClientData(clientDataJSON: string): string | undefined {
  const bytes = base64UrlDecode(clientDataJSON);
  if (!bytes) return undefined;
  try {
    const { challenge } = JSON.parse(
      new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes),
    ) as {
      challenge?: unknown;
    };
    return typeof challenge === "string" && challenge.length <= 128 ? challenge : undefined;
  } catch {
    return undefined;
  }
}
