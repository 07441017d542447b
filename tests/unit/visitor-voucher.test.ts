import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { voucherSchema } from "#rules/cookies.ts";
import {
  isCurrentVoucher,
  isVouched,
  type VoucherKey,
  voucherKeysSchema,
  voucherOf,
} from "#rules/visitor-voucher.ts";

// The site's word that it issued a webId (decision 032): signed with the first key, verified by any.

const current: VoucherKey = { id: "k2", secret: "a-new-secret-of-at-least-thirty-two-chars" };
const older: VoucherKey = { id: "k1", secret: "the-old-secret-of-at-least-thirty-two-chars" };
const webId = "0f8fad5b-d9cb-469f-a165-70867728950e";
const otherWebId = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

describe("vouchers", () => {
  test("a voucher is the cookie's shape and is the site's for its webId", async () => {
    const voucher = await voucherOf([current, older], webId);
    expect(v.is(voucherSchema, voucher)).toBe(true);
    expect(voucher.startsWith("k2.")).toBe(true);
    expect(await isVouched([current, older], webId, voucher)).toBe(true);
  });

  test.each([
    ["none", async () => undefined],
    ["for another webId", async () => voucherOf([current], otherWebId)],
    [
      "with one character edited",
      async () => {
        const voucher = await voucherOf([current], webId);
        const last = voucher.at(-1) === "A" ? "B" : "A";
        return `${voucher.slice(0, -1)}${last}`;
      },
    ],
    [
      "signed by a key no longer configured",
      async () => voucherOf([{ id: "k0", secret: "x".repeat(40) }], webId),
    ],
    [
      "under a configured key id with another secret",
      async () => voucherOf([{ id: "k2", secret: "y".repeat(40) }], webId),
    ],
    ["made up", async () => "k2.AAAAAAAAAAAAAAAAAAAAAA"],
    ["of another shape", async () => "k2"],
  ])("a voucher %s vouches for nothing", async (_, made) => {
    expect(await isVouched([current, older], webId, await made())).toBe(false);
  });

  test("rotation: the old key's vouchers still verify, and the edge replaces them", async () => {
    const old = await voucherOf([older], webId);
    expect(await isVouched([current, older], webId, old)).toBe(true);
    expect(isCurrentVoucher([current, older], old)).toBe(false);
    expect(isCurrentVoucher([current, older], await voucherOf([current, older], webId))).toBe(true);
    expect(isCurrentVoucher([current, older], undefined)).toBe(false);
    // Once the old key is dropped, its vouchers count as none.
    expect(await isVouched([current], webId, old)).toBe(false);
  });
});

describe("VISITOR_ID_KEYS", () => {
  test("is id:secret pairs, the signing key first", () => {
    expect(v.parse(voucherKeysSchema, `k2:${current.secret}, k1:${older.secret}`)).toEqual([current, older]);
  });

  test.each([
    ["a short secret", "k1:short"],
    ["no id", `:${current.secret}`],
    ["an id too long", `toolongid:${current.secret}`],
    ["a key id twice", `k1:${current.secret},k1:${older.secret}`],
    ["nothing after the comma", `k1:${current.secret},`],
  ])("refuses %s, without echoing the secret", (_, value) => {
    const parsed = v.safeParse(voucherKeysSchema, value);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.issues?.map((issue) => issue.message))).not.toContain("secret-of");
  });
});
