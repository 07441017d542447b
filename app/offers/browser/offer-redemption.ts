import * as v from "valibot";
import { maxClockSkewMs, type OfferState, offerCodeAnswerSchema, offerRefusalSchema } from "#rules/offers.ts";

/**
 * Redeeming an offer in the browser (spec 001 §4 "Redemption requires device authentication (face,
 * fingerprint or PIN)"): the page's redeem route gives WebAuthn options (@simplewebauthn/server's,
 * as JSON: a registration, or an assertion with the credential this account registered before),
 * the device's own authenticator verifies the person (`userVerification: "required"`), and the
 * route hands the credential's JSON to the origin, which checks it and hands out the code. Runs
 * only after a click.
 */

export type RedeemOutcome =
  | { outcome: "code"; code: string; months: number }
  | { outcome: "refused"; state: OfferState }
  /** The authenticator did not verify the person, or the person cancelled. */
  | { outcome: "deviceAuthFailed" }
  | { outcome: "clockSkew" }
  | { outcome: "signedOut" }
  | { outcome: "failed" };

export type RedeemDeps = {
  /** The page's redeem route (`/{lang}/campaign/{name}/redeem`). */
  endpoint: string;
  fetch: typeof fetch;
  credentials: Pick<CredentialsContainer, "create" | "get">;
  /** The device's clock, epoch ms. */
  now: () => number;
};

const credentialRef = v.object({
  id: v.string(),
  type: v.literal("public-key"),
  transports: v.optional(v.array(v.string())),
});

/** `PublicKeyCredentialCreationOptionsJSON`, the parts the page passes to the browser. */
const creationSchema = v.object({
  challenge: v.string(),
  rp: v.object({ name: v.string(), id: v.optional(v.string()) }),
  user: v.object({ id: v.string(), name: v.string(), displayName: v.string() }),
  pubKeyCredParams: v.array(v.object({ type: v.literal("public-key"), alg: v.number() })),
  timeout: v.optional(v.number()),
  excludeCredentials: v.optional(v.array(credentialRef)),
  authenticatorSelection: v.optional(
    v.object({
      authenticatorAttachment: v.optional(v.picklist(["platform", "cross-platform"])),
      residentKey: v.optional(v.picklist(["discouraged", "preferred", "required"])),
      requireResidentKey: v.optional(v.boolean()),
      userVerification: v.optional(v.picklist(["discouraged", "preferred", "required"])),
    }),
  ),
  attestation: v.optional(v.picklist(["none", "indirect", "direct", "enterprise"])),
});

/** `PublicKeyCredentialRequestOptionsJSON`, the parts the page passes to the browser. */
const requestSchema = v.object({
  challenge: v.string(),
  rpId: v.optional(v.string()),
  timeout: v.optional(v.number()),
  allowCredentials: v.optional(v.array(credentialRef)),
  userVerification: v.optional(v.picklist(["discouraged", "preferred", "required"])),
});

const challengeSchema = v.object({
  state: v.literal("available"),
  create: v.optional(creationSchema),
  get: v.optional(requestSchema),
  now: v.number(),
});

type CredentialRef = v.InferOutput<typeof credentialRef>;

function bytesOf(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (char) =>
    char.charCodeAt(0),
  );
}

function base64UrlOf(buffer: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function descriptorsOf(refs: readonly CredentialRef[] | undefined): PublicKeyCredentialDescriptor[] {
  return (refs ?? []).map((ref) => ({
    type: "public-key",
    id: bytesOf(ref.id),
    ...(ref.transports ? { transports: ref.transports as AuthenticatorTransport[] } : {}),
  }));
}

/** What the browser's API takes: the options' base64url fields as bytes. */
function creationOptionsOf(json: v.InferOutput<typeof creationSchema>): PublicKeyCredentialCreationOptions {
  return {
    ...json,
    challenge: bytesOf(json.challenge),
    user: { ...json.user, id: bytesOf(json.user.id) },
    excludeCredentials: descriptorsOf(json.excludeCredentials),
  };
}

function requestOptionsOf(json: v.InferOutput<typeof requestSchema>): PublicKeyCredentialRequestOptions {
  return {
    ...json,
    challenge: bytesOf(json.challenge),
    allowCredentials: descriptorsOf(json.allowCredentials),
  };
}

/** `PublicKeyCredential.toJSON()`, written out: not every browser that has WebAuthn has it. */
function credentialJSON(credential: PublicKeyCredential): Record<string, unknown> | undefined {
  const common = {
    id: credential.id,
    rawId: base64UrlOf(credential.rawId),
    type: credential.type,
    clientExtensionResults: {},
    ...(credential.authenticatorAttachment
      ? { authenticatorAttachment: credential.authenticatorAttachment }
      : {}),
  };
  const response = credential.response;
  const clientDataJSON = base64UrlOf(response.clientDataJSON);
  if ("attestationObject" in response) {
    const attestation = response as AuthenticatorAttestationResponse;
    return {
      ...common,
      response: {
        clientDataJSON,
        attestationObject: base64UrlOf(attestation.attestationObject),
        transports: attestation.getTransports?.() ?? [],
      },
    };
  }
  if ("signature" in response) {
    const assertion = response as AuthenticatorAssertionResponse;
    return {
      ...common,
      response: {
        clientDataJSON,
        authenticatorData: base64UrlOf(assertion.authenticatorData),
        signature: base64UrlOf(assertion.signature),
        ...(assertion.userHandle ? { userHandle: base64UrlOf(assertion.userHandle) } : {}),
      },
    };
  }
  return undefined;
}

async function post(deps: RedeemDeps, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await deps.fetch(deps.endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

/** An answer that is not a code: a refusal by state, sign-in, or a failure. */
function notACode(answer: { status: number; json: unknown }): RedeemOutcome {
  if (answer.status === 401 || answer.status === 456) return { outcome: "signedOut" };
  const refusal = v.safeParse(offerRefusalSchema, answer.json);
  const state = refusal.success ? refusal.output.state : undefined;
  if (state === "deviceAuthRequired") return { outcome: "deviceAuthFailed" };
  if (state === "signInRequired") return { outcome: "signedOut" };
  return state ? { outcome: "refused", state } : { outcome: "failed" };
}

function codeOf(json: unknown): RedeemOutcome | undefined {
  const code = v.safeParse(offerCodeAnswerSchema, json);
  return code.success ? { outcome: "code", ...code.output } : undefined;
}

export async function redeemOffer(deps: RedeemDeps): Promise<RedeemOutcome> {
  try {
    const asked = await post(deps, { step: "challenge" });
    if (asked.status !== 200) return notACode(asked);
    const again = codeOf(asked.json);
    if (again) return again;
    const challenge = v.safeParse(challengeSchema, asked.json);
    if (!challenge.success) return { outcome: "failed" };
    const { output } = challenge;
    if (Math.abs(deps.now() - output.now) > maxClockSkewMs) return { outcome: "clockSkew" };

    let credential: Credential | null;
    try {
      credential = output.get
        ? await deps.credentials.get({ publicKey: requestOptionsOf(output.get) })
        : output.create
          ? await deps.credentials.create({ publicKey: creationOptionsOf(output.create) })
          : null;
    } catch (error) {
      // NotAllowedError: cancelled, timed out, or the person could not be verified.
      if (error instanceof DOMException && error.name === "NotAllowedError")
        return { outcome: "deviceAuthFailed" };
      return { outcome: "failed" };
    }
    const json = credential ? credentialJSON(credential as PublicKeyCredential) : undefined;
    if (!json) return { outcome: "failed" };
    const sent = await post(deps, { step: "code", credential: json });
    if (sent.status === 200 || sent.status === 201) return codeOf(sent.json) ?? { outcome: "failed" };
    return notACode(sent);
  } catch {
    return { outcome: "failed" };
  }
}

/**
 * Whether this browser can verify the person on the device: WebAuthn with a user-verifying
 * platform authenticator (Face ID, Touch ID, a fingerprint, Windows Hello, the device PIN).
 */
export async function deviceAuthAvailable(): Promise<boolean> {
  if (typeof window === "undefined" || typeof window.PublicKeyCredential === "undefined") return false;
  try {
    return await window.PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable();
  } catch {
    return false;
  }
}
