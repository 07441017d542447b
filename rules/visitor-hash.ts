import { clientAddressKey } from "./client-address";

/**
 * The visitor of an identification event (docs/decisions/032-live-numbers.md): what the charts'
 * once-per-visitor-per-track-per-day rule counts, never who the visitor is.
 *
 * - A visitor the site vouched for (a webId with the site's voucher, rules/visitor-voucher.ts,
 *   checked by the edge) who does not ask not to be tracked: `w:` and the SHA-256 of the webId.
 *   The webId itself never leaves the request.
 * - Anyone else (`Sec-GPC: 1`, no webId, a webId the client made up or a voucher edited): `d:` and
 *   the SHA-256 of the day's salt, the day, the client address and the user agent. The salt is
 *   random, made for one UTC day and deleted after it (origin/identifications.ts), so a hash says
 *   "the same visitor as earlier today" and nothing once the day is over: as privacy-first
 *   analytics count visitors without cookies. A client that changes its user agent becomes another
 *   `d:` visitor, and the per-address cap (addressHashOf) bounds what that gains.
 *
 * All are cut to 128 bits: enough to keep two visitors apart, too little to be worth more.
 */

/** What a visitor hash is made from; the address and user agent are used only without a vouched webId or with GPC. */
export type VisitorInputs = {
  /** The webId the edge vouched for; never the cookie as the client sent it. */
  webId: string | undefined;
  /** `Sec-GPC: 1` (Global Privacy Control). */
  globalPrivacyControl: boolean;
  address: string;
  userAgent: string;
  /** UTC day of the event, YYYY-MM-DD. */
  day: string;
  /** The day's salt; asked for only when the rule needs it. */
  dailySalt: () => Promise<string>;
};

export const visitorHashPattern = /^[wd]:[0-9a-f]{32}$/;
export const addressHashPattern = /^a:[0-9a-f]{32}$/;

async function sha256Hex128(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The visitor hash of an identification event (the rule above). */
export async function visitorHashOf(inputs: VisitorInputs): Promise<string> {
  if (inputs.webId !== undefined && !inputs.globalPrivacyControl) {
    return `w:${await sha256Hex128(`webId\n${inputs.webId}`)}`;
  }
  const salt = await inputs.dailySalt();
  return `d:${await sha256Hex128(`${salt}\n${inputs.day}\n${inputs.address}\n${inputs.userAgent}`)}`;
}

/**
 * The client address of an identification, for the per-address cap of a chart (decision 032):
 * `a:` and the SHA-256 of the day's salt, the day and the address (its /64 for IPv6,
 * rules/client-address.ts). Like the `d:` hash it means nothing once the day's salt is gone.
 */
export async function addressHashOf(inputs: {
  address: string;
  day: string;
  dailySalt: () => Promise<string>;
}): Promise<string> {
  const salt = await inputs.dailySalt();
  return `a:${await sha256Hex128(`${salt}\n${inputs.day}\naddress\n${clientAddressKey(inputs.address)}`)}`;
}

/** The UTC day (YYYY-MM-DD) of an instant: the day events and counters are kept by. */
export function utcDayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
