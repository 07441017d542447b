import type { AppLoadContext } from "@remix-run/cloudflare";
import { radioChartServicePath } from "#rules/addresses.ts";
import { type RadioChart, radioChartSchema } from "#rules/radio.ts";

/**
 * A genre's radio chart from the origin, checked by its schema. Only the radio spins loader reads
 * it: here, the schema keeps valibot out of the page's browser code (decision 027).
 */
export function loadRadioChart(
  { services }: Pick<AppLoadContext, "services">,
  genre: string,
): Promise<RadioChart> {
  return services.getJson(radioChartServicePath(genre.toLowerCase()), radioChartSchema);
}
