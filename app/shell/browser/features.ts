import * as v from "valibot";
import { featureConfigServicePath } from "#rules/addresses.ts";
import { type LoadedFeatureConfig, loadFeatureConfig } from "#rules/feature-flags.ts";
import { getJson, type RequestOptions } from "./request";

/**
 * The browser's feature config: the config the root loader rendered with when it supplied one
 * (so the browser re-evaluates the very same config and nothing flashes), else
 * `GET /services/config/features{app}.json`, else the default config.
 */
export function loadBrowserFeatureConfig(
  options: { supplied?: unknown; app?: string; request?: RequestOptions } = {},
): Promise<LoadedFeatureConfig> {
  return loadFeatureConfig({
    supplied: options.supplied,
    fetchConfig: () => getJson(featureConfigServicePath(options.app), v.unknown(), options.request),
  });
}
