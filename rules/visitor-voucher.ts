import * as v from "valibot";

/**
 * The site's word that it issued a visitor id (docs/decisions/032-live-numbers.md): the `webIdSig`
 * cookie beside `webId`, "{key id}.{first 128 bits of HMAC-SHA-256(key, webId), base64url}". Only
 * a webId that carries its voucher counts as a visitor toward charts and tag counts; a webId a
 * client made up, or a voucher edited or copied from another webId, counts as none (the request is
 * counted under the day's address hash, rules/visitor-hash.ts). The keys come from VISITOR_ID_KEYS;
 * the first signs, every one verifies, so a key is rotated by putting a new one first and dropping
 * the old one once its vouchers have been replaced (the edge replaces a voucher of an older key at
 * the visitor's next page).
 */

/** One key of VISITOR_ID_KEYS: a short id, written into each voucher, and its secret. */
export type VoucherKey = { id: string; secret: string };

/** `id:secret,id:secret`: ids of 1–8 letters or digits, secrets of 32 or more printable characters. */
export const voucherKeysSchema = v.pipe(
  v.string(),
  v.transform((text) => text.split(",").map((entry) => entry.trim())),
  v.array(
    v.pipe(
      v.string(),
      v.regex(
        /^[A-Za-z0-9]{1,8}:[!-+\--~]{32,}$/,
        "VISITOR_ID_KEYS is id:secret,… (secrets of 32+ characters)",
      ),
      v.transform((entry): VoucherKey => {
        const colon = entry.indexOf(":");
        return { id: entry.slice(0, colon), secret: entry.slice(colon + 1) };
      }),
    ),
  ),
  v.check(
    (keys) => new Set(keys.map((key) => key.id)).size === keys.length,
    "VISITOR_ID_KEYS names a key id twice",
  ),
);

const imported = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = imported.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    imported.set(secret, key);
  }
  return key;
}

async function macOf(key: VoucherKey, webId: string): Promise<string> {
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", await hmacKey(key.secret), new TextEncoder().encode(`webId\n${webId}`)),
  );
  let binary = "";
  for (const byte of mac.subarray(0, 16)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The voucher of `webId` under the signing key (the first). */
export async function voucherOf(
  keys: readonly [VoucherKey, ...VoucherKey[]],
  webId: string,
): Promise<string> {
  const [signing] = keys;
  return `${signing.id}.${await macOf(signing, webId)}`;
}

/** Whether `voucher` was signed by the signing key: a voucher of an older key is replaced. */
export function isCurrentVoucher(
  keys: readonly [VoucherKey, ...VoucherKey[]],
  voucher: string | undefined,
): boolean {
  return voucher?.startsWith(`${keys[0].id}.`) === true;
}

/** Whether `voucher` is the site's for exactly this webId, under any key still configured. */
export async function isVouched(
  keys: readonly VoucherKey[],
  webId: string,
  voucher: string | undefined,
): Promise<boolean> {
  if (voucher === undefined) return false;
  const key = keys.find((candidate) => voucher.startsWith(`${candidate.id}.`));
  if (!key) return false;
  const expected = await macOf(key, webId);
  const given = voucher.slice(key.id.length + 1);
  // Every character compared, whatever the first difference: the answer takes as long either way.
  let difference = expected.length ^ given.length;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return difference === 0;
}
