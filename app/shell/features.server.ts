import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { featureConfigServicePath } from "#rules/addresses.ts";
import {
  enabledFeatureNames,
  evaluateFeatures,
  type FeatureEnvironment,
  type FeaturePlatform,
  type Features,
  isFeatureEnabled,
  loadFeatureConfig,
} from "#rules/feature-flags.ts";
import type { FeatureName } from "#rules/feature-names.ts";
import { platformOf } from "#rules/user-agent.ts";

// For route modules: their loaders read a flag's data without the schemas in their browser chunk.
export { isFeatureEnabled };

type Context = Pick<AppLoadContext, "edge" | "services" | "account">;

/** The parts of the feature context that come from the Worker and the request. */
export function featureOptionsOf(
  context: Pick<AppLoadContext, "config">,
  request: Request,
): { environment: FeatureEnvironment; platform: FeaturePlatform } {
  return {
    environment: context.config.SITE_ENV,
    platform: platformOf(request.headers.get("user-agent")),
  };
}

/**
 * The flags on for this visitor: the feature config through the services proxy (cached like any
 * call), evaluated with the visitor's country, ids, platform and sign-in. A failed load gives the
 * default config, where every flag is off (spec 000 §8). The document cache keys a page by the
 * same evaluation (edge/document-cache.ts `flagsOf`), so a page rendered with a flag off is never
 * served to a visitor who has it on.
 */
export async function visitorFeatures(
  { edge, services, account }: Context,
  options: { environment: FeatureEnvironment; platform: FeaturePlatform },
): Promise<Features> {
  const { config } = await loadFeatureConfig({
    fetchConfig: () => services.getJson(featureConfigServicePath(), v.unknown()),
  });
  return evaluateFeatures(config, {
    environment: options.environment,
    country: edge.country,
    inid: edge.inid,
    platform: options.platform,
    loggedin: account !== null,
    userId: edge.inApp ? edge.inid : edge.webId,
  });
}

/** The names of the flags enabled for this visitor, for the root's data (the chrome and the browser code). */
export async function enabledFeaturesFor(
  context: Context & Pick<AppLoadContext, "config">,
  request: Request,
): Promise<string[]> {
  return enabledFeatureNames(await visitorFeatures(context, featureOptionsOf(context, request)));
}

/** Whether one flag is enabled for this visitor (`isFeatureEnabled`: on, and its data not `enabled: false`). */
export async function featureEnabledFor(
  context: Context & Pick<AppLoadContext, "config">,
  request: Request,
  name: FeatureName,
): Promise<boolean> {
  return isFeatureEnabled(await visitorFeatures(context, featureOptionsOf(context, request)), name);
}
