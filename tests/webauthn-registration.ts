/** What a browser's WebAuthn sends: base64url without padding. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// A scripted WebAuthn client with no authenticator: a software key pair, and the registration
// and assertion answers it makes by hand, with whatever flags it likes (it "verifies the user" by
// setting a bit). What a real platform authenticator makes has the same shape.

type CborValue = string | number | Uint8Array | Map<CborValue, CborValue> | { [key: string]: CborValue };

/** CBOR (RFC 8949) of what an attestation object and a COSE key hold: integers, strings, bytes, maps. */
export function cbor(value: CborValue): number[] {
  const head = (major: number, length: number) =>
    length < 24
      ? [(major << 5) | length]
      : length < 256
        ? [(major << 5) | 24, length]
        : [(major << 5) | 25, length >> 8, length & 255];
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = [...new TextEncoder().encode(value)];
    return [...head(3, bytes.length), ...bytes];
  }
  if (value instanceof Uint8Array) return [...head(2, value.length), ...value];
  const entries: [CborValue, CborValue][] = value instanceof Map ? [...value] : Object.entries(value);
  return [...head(5, entries.length), ...entries.flatMap(([key, item]) => [...cbor(key), ...cbor(item)])];
}

/** A software "authenticator": an ES256 key pair and a credential ID, nothing else. */
export type SoftwareKey = { id: Uint8Array; keys: CryptoKeyPair; counter: number };

export async function softwareKey(): Promise<SoftwareKey> {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  return { id: crypto.getRandomValues(new Uint8Array(32)), keys, counter: 0 };
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
}

/** The public key as COSE (RFC 9053: kty EC2, alg ES256, crv P-256, x, y). */
async function coseKeyOf(key: SoftwareKey): Promise<Uint8Array> {
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", key.keys.publicKey));
  return new Uint8Array(
    cbor(
      new Map<CborValue, CborValue>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, raw.slice(1, 33)],
        [-3, raw.slice(33, 65)],
      ]),
    ),
  );
}

/** An ECDSA signature as WebAuthn sends it: ASN.1 DER, not WebCrypto's r‖s. */
function derOf(signature: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
    const trimmed = [...bytes.slice(start)];
    const body = (trimmed[0] ?? 0) & 0x80 ? [0, ...trimmed] : trimmed;
    return [0x02, body.length, ...body];
  };
  const body = [...integer(signature.slice(0, 32)), ...integer(signature.slice(32))];
  return new Uint8Array([0x30, body.length, ...body]);
}

export type Ceremony = {
  challenge: string;
  origin: string;
  rpId: string;
  /** Authenticator data flags: 0x01 user present, 0x04 user verified, 0x40 attested credential data. */
  flags?: number;
  type?: string;
};

function clientDataOf({ type, challenge, origin }: Ceremony): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/**
 * A registration answer (`PublicKeyCredential.toJSON()`) with a "none" attestation. With `key`,
 * it holds the key's credential ID and COSE public key (what a real authenticator sends); without
 * one, it is the answer that only claims: authenticator data of an RP ID hash, flags and a counter.
 */
export async function registrationAnswer(ceremony: Ceremony & { key?: SoftwareKey }) {
  const { key, rpId } = ceremony;
  const flags = ceremony.flags ?? (key ? 0x45 : 0x05);
  const rpIdHash = await sha256(new TextEncoder().encode(rpId));
  const counter = [0, 0, 0, key?.counter ?? 1];
  const attested = key
    ? [...new Uint8Array(16), key.id.length >> 8, key.id.length & 255, ...key.id, ...(await coseKeyOf(key))]
    : [];
  const authData = new Uint8Array([...rpIdHash, flags, ...counter, ...attested]);
  const id = base64UrlEncode(key?.id ?? crypto.getRandomValues(new Uint8Array(32)));
  return {
    id,
    rawId: id,
    type: "public-key",
    response: {
      clientDataJSON: base64UrlEncode(
        clientDataOf({ ...ceremony, type: ceremony.type ?? "webauthn.create" }),
      ),
      attestationObject: base64UrlEncode(new Uint8Array(cbor({ fmt: "none", attStmt: {}, authData }))),
      transports: ["internal"],
    },
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  };
}

/** An assertion answer signed with `key` (its counter moves on by one). */
export async function assertionAnswer(ceremony: Ceremony & { key: SoftwareKey }) {
  const { key, rpId } = ceremony;
  key.counter += 1;
  const rpIdHash = await sha256(new TextEncoder().encode(rpId));
  const authData = new Uint8Array([...rpIdHash, ceremony.flags ?? 0x05, 0, 0, 0, key.counter]);
  const clientData = clientDataOf({ ...ceremony, type: ceremony.type ?? "webauthn.get" });
  const signed = new Uint8Array([...authData, ...(await sha256(clientData))]);
  const signature = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key.keys.privateKey, signed),
  );
  const id = base64UrlEncode(key.id);
  return {
    id,
    rawId: id,
    type: "public-key",
    response: {
      clientDataJSON: base64UrlEncode(clientData),
      authenticatorData: base64UrlEncode(authData),
      signature: base64UrlEncode(derOf(signature)),
    },
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  };
}
