/**
 * The client address of the bench's n-th match: one of its own in 198.18.0.0/15 (RFC 2544's
 * range for benchmarks), since the site lets one address make only so many match requests a
 * minute (origin/routes/webrec.ts) and a bench measures matching, not that limit.
 */
export function benchClientAddress(n: number): string {
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
}
