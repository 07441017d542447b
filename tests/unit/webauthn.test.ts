import { describe, expect, test } from "vitest";
import { challengeOfClientData, checkRegistration, decodeCbor } from "../../origin/webauthn";
import { base64UrlEncode, cbor, type RegistrationAnswer, registrationAnswer } from "../webauthn-registration";

// The origin's check of a WebAuthn registration answer (decision 022): each way an answer can be
// wrong gives its own reason, and the CBOR reader refuses what an attestation object never holds.

const origin = "https://tunewave.example";
const challenge = "q1w2e3r4t5y6u7i8o9p0";

function answer(overrides: Partial<RegistrationAnswer> = {}) {
  return registrationAnswer({ challenge, origin, rpId: "tunewave.example", ...overrides });
}

describe("checkRegistration", () => {
  test.each([
    ["a verified registration", {}, { ok: true }],
    ["UP and UV with more flags set (AT, BE)", { flags: 0x45 | 0x08 }, { ok: true }],
    ["user present, not verified", { flags: 0x01 }, { ok: false, reason: "verification" }],
    ["verified but not present", { flags: 0x04 }, { ok: false, reason: "presence" }],
    ["another challenge", { challenge: "something-else" }, { ok: false, reason: "challenge" }],
    ["another origin", { origin: "https://evil.example" }, { ok: false, reason: "origin" }],
    ["another relying party", { rpId: "evil.example" }, { ok: false, reason: "rpid" }],
    ["an assertion", { type: "webauthn.get" }, { ok: false, reason: "type" }],
  ] as const)("%s", async (_, overrides, expected) => {
    expect(await checkRegistration({ ...(await answer(overrides)), challenge, origin })).toEqual(expected);
  });

  test.each([
    ["client data that is not base64url", { clientDataJSON: "not base64!" }],
    ["client data that is not JSON", { clientDataJSON: base64UrlEncode(new TextEncoder().encode("{")) }],
    [
      "an attestation object that is not CBOR",
      { attestationObject: base64UrlEncode(new Uint8Array([0xff])) },
    ],
    [
      "authenticator data too short",
      {
        attestationObject: base64UrlEncode(
          new Uint8Array(cbor({ fmt: "none", attStmt: {}, authData: new Uint8Array(10) })),
        ),
      },
    ],
  ])("malformed: %s", async (_, broken) => {
    expect(await checkRegistration({ ...(await answer()), ...broken, challenge, origin })).toEqual({
      ok: false,
      reason: "malformed",
    });
  });

  test("the challenge is read from the client data to look it up", async () => {
    expect(challengeOfClientData((await answer()).clientDataJSON)).toBe(challenge);
    expect(challengeOfClientData("%%%")).toBeUndefined();
  });
});

describe("decodeCbor", () => {
  test.each([
    ["an unsigned integer", [0x18, 200], 200],
    ["a negative integer", [0x38, 0x63], -100],
    ["text", [0x63, 0x61, 0x62, 0x63], "abc"],
    ["an array", [0x82, 0x01, 0xf5], [1, true]],
    ["null", [0xf6], null],
  ])("%s", (_, bytes, expected) => {
    expect(decodeCbor(new Uint8Array(bytes))).toEqual(expected);
  });

  test.each([
    ["bytes after the item", [0x01, 0x02]],
    ["a string running past the end", [0x65, 0x61]],
    ["a tag", [0xc0, 0x01]],
    ["a float", [0xf9, 0x3c, 0x00]],
    ["an indefinite length", [0x5f, 0xff]],
    ["nesting deeper than an attestation object", Array(12).fill(0x81).concat([0x01])],
    ["nothing", []],
  ])("refuses %s", (_, bytes) => {
    expect(() => decodeCbor(new Uint8Array(bytes))).toThrow();
  });
});
