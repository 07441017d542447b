import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import * as v from "valibot";

/**
 * The library and its certificate parsers (ASN.1, X.509, a dependency-injection container) are
 * loaded on first use: only the offers' device check needs them, and evaluated at start-up they
 * were a cost every new isolate paid (decision 015, amendment: cold start).
 */
const library = () => import("@simplewebauthn/server");
const helpers = () => import("@simplewebauthn/server/helpers");

/**
 * The offers' device check (decision 022, "Device check and farming limits") on
 * @simplewebauthn/server: its options generators and its verification of a registration (with
 * the attestation statement when the authenticator sent one) and of an assertion. What this adds:
 * the relying party from the site's origin alone, user verification as our own check (so that
 * "not verified" is a state the page shows, not a 400), and the answers' shapes as schemas.
 */

/** The relying party: the site's origin (SITE_ORIGIN) and its host name as the RP ID. */
export type RelyingParty = { origin: string; rpId: string };

export function relyingPartyOf(siteOrigin: string): RelyingParty {
  return { origin: siteOrigin, rpId: new URL(siteOrigin).hostname };
}

/** COSE algorithms: ES256 (every platform authenticator) and RS256 (Windows Hello). */
const algorithms = [-7, -257];

/**
 * A new credential on the person's own device: a platform authenticator that verifies them.
 * Attestation is asked for (`direct`), so an authenticator that has a statement sends it and it
 * is verified; one that has none (most passkey providers) sends `none`, which is accepted.
 */
export async function registrationOptions(
  rp: RelyingParty,
  input: { userName: string; timeoutMs: number },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await library();
  return generateRegistrationOptions({
    rpName: "Tunewave",
    rpID: rp.rpId,
    userName: input.userName,
    userDisplayName: input.userName,
    timeout: input.timeoutMs,
    attestationType: "direct",
    authenticatorSelection: {
      authenticatorAttachment: "platform",
      userVerification: "required",
      residentKey: "discouraged",
    },
    supportedAlgorithmIDs: algorithms,
  });
}

/** An assertion with a credential this account registered before (and has had no code for). */
export async function authenticationOptions(
  rp: RelyingParty,
  input: { timeoutMs: number; allow: readonly string[] },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await library();
  return generateAuthenticationOptions({
    rpID: rp.rpId,
    timeout: input.timeoutMs,
    userVerification: "required",
    allowCredentials: input.allow.map((id) => ({ id })),
  });
}

const base64Url = (maxLength: number) =>
  v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]*$/, "Not base64url"), v.maxLength(maxLength));
/** §5.4.3: a credential ID is at most 1023 bytes (1364 base64url characters). */
const credentialId = v.pipe(base64Url(1364), v.minLength(16));
const common = {
  id: credentialId,
  rawId: credentialId,
  type: v.literal("public-key"),
  clientExtensionResults: v.optional(v.object({}), {}),
  authenticatorAttachment: v.optional(v.picklist(["platform", "cross-platform"])),
};

/** `PublicKeyCredential.toJSON()` of a registration or of an assertion. */
export const credentialResponseSchema = v.union([
  v.object({
    ...common,
    response: v.object({
      clientDataJSON: base64Url(4096),
      attestationObject: base64Url(16384),
      transports: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(32))), v.maxLength(8))),
    }),
  }),
  v.object({
    ...common,
    response: v.object({
      clientDataJSON: base64Url(4096),
      authenticatorData: base64Url(4096),
      signature: base64Url(2048),
      userHandle: v.optional(base64Url(128)),
    }),
  }),
]);

export type CredentialResponse = v.InferOutput<typeof credentialResponseSchema>;

/** The challenge the answer's client data names, to look the issued one up; undefined if unreadable. */
export async function challengeOf(answer: CredentialResponse): Promise<string | undefined> {
  const { isoBase64URL } = await helpers();
  try {
    const { challenge } = JSON.parse(isoBase64URL.toUTF8String(answer.response.clientDataJSON)) as {
      challenge?: unknown;
    };
    return typeof challenge === "string" && challenge.length <= 128 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/** A credential as stored for later assertions (base64url public key). */
export type StoredCredential = { id: string; publicKey: string; counter: number };

export type DeviceCheck =
  | {
      ok: true;
      /** A registration's new credential, with what the authenticator said it is. */
      registered?: StoredCredential & { fmt: string; aaguid: string };
      /** An assertion's credential and its new counter. */
      asserted?: { id: string; counter: number };
    }
  /** `notVerified`: the ceremony checked out but the authenticator did not verify the person. */
  | { ok: false; reason: "notVerified" | "invalid"; detail: string };

function invalid(error: unknown): DeviceCheck {
  const detail = error instanceof Error ? error.message : "Not verified";
  return { ok: false, reason: "invalid", detail: detail.slice(0, 200) };
}

const notVerified: DeviceCheck = { ok: false, reason: "notVerified", detail: "User not verified" };

/**
 * Checks a registration or an assertion against the challenge we issued, the site's origin and
 * RP ID (the library: client data, RP ID hash, user presence, the attestation statement, the
 * assertion's signature and counter), then requires user verification. An assertion is checked
 * against `known`, the account's own unredeemed credentials.
 */
export async function checkCredential(
  rp: RelyingParty,
  answer: CredentialResponse,
  expectedChallenge: string,
  known: readonly StoredCredential[],
): Promise<DeviceCheck> {
  const expected = { expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.rpId };
  const [{ verifyRegistrationResponse, verifyAuthenticationResponse }, { isoBase64URL }] = await Promise.all([
    library(),
    helpers(),
  ]);
  try {
    if ("attestationObject" in answer.response) {
      const verified = await verifyRegistrationResponse({
        ...expected,
        response: answer as RegistrationResponseJSON,
        requireUserVerification: false,
        supportedAlgorithmIDs: algorithms,
      });
      if (!verified.verified) return invalid(undefined);
      const info = verified.registrationInfo;
      if (!info.userVerified) return notVerified;
      return {
        ok: true,
        registered: {
          id: info.credential.id,
          publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
          counter: info.credential.counter,
          fmt: info.fmt,
          aaguid: info.aaguid,
        },
      };
    }
    const stored = known.find((credential) => credential.id === answer.id);
    if (!stored) return invalid(new Error("Not a credential of this account"));
    const verified = await verifyAuthenticationResponse({
      ...expected,
      response: answer as AuthenticationResponseJSON,
      credential: {
        id: stored.id,
        publicKey: isoBase64URL.toBuffer(stored.publicKey),
        counter: stored.counter,
      },
      requireUserVerification: false,
    });
    if (!verified.verified) return invalid(undefined);
    if (!verified.authenticationInfo.userVerified) return notVerified;
    return { ok: true, asserted: { id: stored.id, counter: verified.authenticationInfo.newCounter } };
  } catch (error) {
    return invalid(error);
  }
}
