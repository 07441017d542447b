import { expect, test } from "vitest";
import { scriptJsonText } from "#rules/script-json.ts";

test("scriptJsonText cannot close its script element and stays the same JSON", () => {
  const value = { name: "</script><script>alert(1)</script>", a: "x & y", s: "\u2028\u2029" };
  const text = scriptJsonText(value);
  expect(text).not.toMatch(/[<>&\u2028\u2029]/);
  expect(JSON.parse(text)).toEqual(value);
});
