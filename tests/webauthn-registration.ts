/** What a browser's WebAuthn sends: base64url without padding (the origin only decodes it). */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// A WebAuthn registration answer as an authenticator with attestation "none" makes it: client data
// JSON and an attestation object whose authenticator data holds the RP ID's hash and the flags.

/** CBOR (RFC 8949) of what an attestation object holds: text keys, a map, byte strings (< 65536). */
export function cbor(value: string | Uint8Array | Record<string, unknown>): number[] {
  const head = (major: number, length: number) =>
    length < 24
      ? [(major << 5) | length]
      : length < 256
        ? [(major << 5) | 24, length]
        : [(major << 5) | 25, length >> 8, length & 255];
  if (typeof value === "string") {
    const bytes = [...new TextEncoder().encode(value)];
    return [...head(3, bytes.length), ...bytes];
  }
  if (value instanceof Uint8Array) return [...head(2, value.length), ...value];
  const entries = Object.entries(value);
  return [
    ...head(5, entries.length),
    ...entries.flatMap(([key, item]) => [
      ...cbor(key),
      ...cbor(item as Uint8Array | string | Record<string, unknown>),
    ]),
  ];
}

export type RegistrationAnswer = {
  challenge: string;
  origin: string;
  rpId: string;
  /** Authenticator data flags: 0x01 user present, 0x04 user verified. */
  flags?: number;
  type?: string;
};

export async function registrationAnswer({
  challenge,
  origin,
  rpId,
  flags = 0x05,
  type = "webauthn.create",
}: RegistrationAnswer): Promise<{ clientDataJSON: string; attestationObject: string }> {
  const clientData = new TextEncoder().encode(
    JSON.stringify({ type, challenge, origin, crossOrigin: false }),
  );
  const rpIdHash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(rpId)));
  const authData = new Uint8Array([...rpIdHash, flags, 0, 0, 0, 1]);
  return {
    clientDataJSON: base64UrlEncode(clientData),
    attestationObject: base64UrlEncode(new Uint8Array(cbor({ fmt: "none", attStmt: {}, authData }))),
  };
}
