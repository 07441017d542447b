/**
 * What counts as one client address for the limits and caps against abuse (decision 032): an IPv4
 * address as it is, an IPv6 address by its /64 prefix. One IPv6 subscriber is given a whole /64 and
 * can walk through its 2^64 addresses at will, so a limit per full IPv6 address limits nothing; a
 * /64 is what one line, one household or one office gets, as an IPv4 address behind a NAT is.
 */
export function clientAddressKey(address: string): string {
  const trimmed = address.trim().toLowerCase();
  if (!trimmed.includes(":")) return trimmed;
  // An IPv4-mapped IPv6 address (::ffff:192.0.2.1) is that IPv4 address.
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(trimmed);
  if (mapped?.[1]) return mapped[1];
  const groups = expandedIpv6(trimmed);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : trimmed;
}

/** The eight groups of an IPv6 address, each without leading zeros; null when it is not one. */
function expandedIpv6(address: string): string[] | null {
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const split = (part: string | undefined) => (part ? part.split(":") : []);
  const head = split(halves[0]);
  const tail = split(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => group.replace(/^0+(?=.)/, ""));
}
