import { expect, test } from "vitest";
import { SiteError } from "../../edge/errors";

test("a SiteError from another bundle's copy of the class is still a SiteError", () => {
  const brand = Symbol.for("tunewave.SiteError");
  class OtherCopy extends Error {
    readonly [brand] = true;
    readonly type = "notfound";
  }
  expect(new OtherCopy() instanceof SiteError).toBe(true);
  expect(new Error("plain") instanceof SiteError).toBe(false);
  expect(new SiteError("notfound", "x") instanceof SiteError).toBe(true);
  class Narrower extends SiteError {}
  expect(new SiteError("notfound", "x") instanceof Narrower).toBe(false);
  expect(new Narrower("notfound", "x") instanceof Narrower).toBe(true);
});
