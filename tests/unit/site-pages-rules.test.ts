import { readFileSync } from "node:fs";
import path from "node:path";
import * as v from "valibot";
import { expect, test } from "vitest";
import { developerKitExample } from "#app/information/developer-kit-example.generated.ts";
import { radioSpins } from "#origin/catalog-rules.ts";
import { fieldErrors, surveyAnswerSchema, typedFields, verificationRequestSchema } from "#rules/forms.ts";
import { weekOf } from "#rules/radio.ts";

// The rules of the remaining pages (decision 024) that need no server: form validation, the radio
// airplay rule and its week, and the developer page's example being the file that runs.

const survey = (fields: Record<string, string>) => {
  const parsed = v.safeParse(surveyAnswerSchema, fields);
  return parsed.success ? parsed.output : fieldErrors(parsed.issues);
};

test.each([
  [
    { satisfaction: "5", found: "always" },
    { satisfaction: 5, found: "always", comment: "" },
  ],
  [
    { satisfaction: "1", found: "rarely", comment: "  fine  " },
    { satisfaction: 1, found: "rarely", comment: "fine" },
  ],
  [{ found: "always" }, { satisfaction: "required" }],
  [{ satisfaction: "0", found: "always" }, { satisfaction: "choose" }],
  [
    { satisfaction: "6", found: "sometimes" },
    { satisfaction: "choose", found: "choose" },
  ],
  [{ satisfaction: "3", found: "mostly", comment: "x".repeat(1001) }, { comment: "tooLong" }],
])("survey answer %o → %o", (fields, expected) => {
  expect(survey(fields)).toEqual(expected);
});

const goodRequest = {
  artistName: "Ryan Reilly",
  email: "Ryan@Example.org",
  role: "artist",
  link: "https://example.org",
  message: "",
};

test.each([
  [{}, { artistName: "Ryan Reilly", email: "ryan@example.org", role: "artist", link: "https://example.org" }],
  [{ artistName: "   " }, { artistName: "required" }],
  [{ artistName: "x".repeat(101) }, { artistName: "tooLong" }],
  [{ email: "" }, { email: "required" }],
  [{ email: "ryan@" }, { email: "email" }],
  [{ role: "fan" }, { role: "choose" }],
  [{ link: "" }, { link: "required" }],
  [{ link: "example.org" }, { link: "link" }],
  [{ link: "javascript:alert(1)" }, { link: "link" }],
  [{ link: "ftp://example.org/" }, { link: "link" }],
  [{ link: "http://example.org/band" }, { link: "http://example.org/band" }],
])("verification request with %o → %o", (change, expected) => {
  const parsed = v.safeParse(verificationRequestSchema, { ...goodRequest, ...change });
  const result = parsed.success ? parsed.output : fieldErrors(parsed.issues);
  expect(result).toMatchObject(expected);
});

test("a form's fields are read as typed, missing ones empty, long ones cut", () => {
  const form = new FormData();
  form.set("artistName", "a".repeat(5000));
  expect(typedFields(form, ["artistName", "email"])).toEqual({ artistName: "a".repeat(2000), email: "" });
});

test("radio spins are the same on every run, and differ by genre", () => {
  expect(radioSpins(1000, 42, "20")).toBe(radioSpins(1000, 42, "20"));
  const spins = [1, 2, 3, 4, 5].map((key) => radioSpins(1000, key, "20"));
  for (const value of spins) {
    expect(value).toBeGreaterThanOrEqual(300);
    expect(value).toBeLessThanOrEqual(1700);
  }
  expect([1, 2, 3, 4, 5].map((key) => radioSpins(1000, key, "21"))).not.toEqual(spins);
  expect(radioSpins(0, 1, "20")).toBe(0);
});

test.each([
  ["2026-11-25T08:00:00Z", "2026-11-23"],
  ["2026-11-23T00:00:00Z", "2026-11-23"],
  ["2026-11-29T23:59:59Z", "2026-11-23"],
  ["2027-01-01T12:00:00Z", "2026-12-28"],
])("the radio week of %s starts on Monday %s", (now, monday) => {
  expect(weekOf(new Date(now))).toBe(monday);
});

test("the developer page shows the example file itself", () => {
  const file = readFileSync(path.join(import.meta.dirname, "../../tools/developer-kit/example.ts"), "utf8");
  expect(developerKitExample).toBe(file);
});
