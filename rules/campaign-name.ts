import * as v from "valibot";

/**
 * A campaign's name, as it appears in `/campaign/{name}` and as the beacons' `exp_name` (spec 000
 * §2): lower-case letters, digits and hyphens, at most 20 (the beacon sanitiser's length, so the
 * statistic names the whole campaign). Apart from rules/offers.ts: the bridge's about message,
 * read on every page, names an offer, and offers.ts brings the country list (decision 027, part 4).
 */
export const campaignNameSchema = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9](?:[a-z0-9-]{0,18}[a-z0-9])?$/, "Malformed offer name"),
);
