import { expect, test } from "vitest";
import { clientAddressKey } from "#rules/client-address.ts";

// One client address for the limits and caps (decision 032): IPv4 as it is, IPv6 by its /64.
test.each([
  ["198.51.100.7", "198.51.100.7"],
  [" 198.51.100.7 ", "198.51.100.7"],
  ["::ffff:198.51.100.7", "198.51.100.7"],
  ["2001:db8:85a3:8d3:1319:8a2e:370:7348", "2001:db8:85a3:8d3::/64"],
  ["2001:0DB8:85A3:08D3:0000:0000:0000:0001", "2001:db8:85a3:8d3::/64"],
  ["2001:db8:85a3:8d3::1", "2001:db8:85a3:8d3::/64"],
  ["2001:db8:85a3:8d3::ffff", "2001:db8:85a3:8d3::/64"],
  ["2001:db8::1", "2001:db8:0:0::/64"],
  ["::1", "0:0:0:0::/64"],
  ["unknown", "unknown"],
  ["2001:db8:::1", "2001:db8:::1"],
])("%s counts as %s", (address, key) => {
  expect(clientAddressKey(address)).toBe(key);
});

test("two addresses of one /64 are one client; the next /64 is another", () => {
  expect(clientAddressKey("2001:db8:1:2::a")).toBe(clientAddressKey("2001:db8:1:2:ffff:ffff:ffff:ffff"));
  expect(clientAddressKey("2001:db8:1:2::a")).not.toBe(clientAddressKey("2001:db8:1:3::a"));
});
