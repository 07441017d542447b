import { expect, test } from "vitest";
import { asksNotToBeTracked } from "#rules/global-privacy-control.ts";

test.each([
  { name: "Sec-GPC: 1", signal: { header: "1" }, untracked: true },
  { name: "Sec-GPC: 1 with spaces", signal: { header: " 1 " }, untracked: true },
  { name: "navigator.globalPrivacyControl true", signal: { navigatorFlag: true }, untracked: true },
  { name: "no header", signal: { header: null }, untracked: false },
  { name: "Sec-GPC: 0", signal: { header: "0" }, untracked: false },
  { name: "Sec-GPC: true (not the spec's value)", signal: { header: "true" }, untracked: false },
  { name: "navigator.globalPrivacyControl false", signal: { navigatorFlag: false }, untracked: false },
  {
    name: "navigator.globalPrivacyControl undefined",
    signal: { navigatorFlag: undefined },
    untracked: false,
  },
  {
    name: "navigator.globalPrivacyControl a truthy string",
    signal: { navigatorFlag: "1" },
    untracked: false,
  },
  { name: "nothing at all", signal: {}, untracked: false },
])("$name: asks not to be tracked is $untracked", ({ signal, untracked }) => {
  expect(asksNotToBeTracked(signal)).toBe(untracked);
});
