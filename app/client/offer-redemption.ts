import * as v from "valibot";
import {
  maxClockSkewMs,
  type OfferState,
  offerCodeAnswerSchema,
  offerRefusalSchema,
} from "../../edge/offers";

/**
 * Redeeming an offer in the browser (spec 001 §4 "Redemption requires device authentication (face,
 * fingerprint or PIN)"): the page's redeem route gives a WebAuthn challenge, the device's own
 * authenticator verifies the person (`userVerification: "required"`), and the route hands the
 * answer to the origin, which checks it and hands out the code. Runs only after a click.
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
  credentials: Pick<CredentialsContainer, "create">;
  /** The device's clock, epoch ms. */
  now: () => number;
};

const challengeSchema = v.object({
  state: v.literal("available"),
  challenge: v.string(),
  userHandle: v.string(),
  userName: v.string(),
  timeoutMs: v.number(),
  now: v.number(),
});

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
      credential = await deps.credentials.create({
        publicKey: {
          challenge: bytesOf(output.challenge),
          rp: { name: "Tunewave" },
          user: { id: bytesOf(output.userHandle), name: output.userName, displayName: output.userName },
          pubKeyCredParams: [
            { type: "public-key", alg: -7 },
            { type: "public-key", alg: -257 },
          ],
          authenticatorSelection: {
            authenticatorAttachment: "platform",
            userVerification: "required",
            residentKey: "discouraged",
          },
          attestation: "none",
          timeout: output.timeoutMs,
        },
      });
    } catch (error) {
      // NotAllowedError: cancelled, timed out, or the person could not be verified.
      if (error instanceof DOMException && error.name === "NotAllowedError")
        return { outcome: "deviceAuthFailed" };
      return { outcome: "failed" };
    }
    const response = (credential as PublicKeyCredential | null)?.response as
      | AuthenticatorAttestationResponse
      | undefined;
    if (!response?.attestationObject) return { outcome: "failed" };
    const sent = await post(deps, {
      step: "code",
      clientDataJSON: base64UrlOf(response.clientDataJSON),
      attestationObject: base64UrlOf(response.attestationObject),
    });
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
