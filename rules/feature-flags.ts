import * as v from "valibot";

/**
 * Feature flags (spec 000 §3 "a config node with data and control properties", §6, §7, §9).
 * Pure and shared: the server evaluates the config during SSR so the first paint already has the
 * right features, and the browser re-evaluates the same config with the same rules.
 *
 * The config served at `/services/config/features{app}.json` (`{app}` is empty for the website):
 *
 * ```json
 * {
 *   "featureflags": {
 *     "webrec": {
 *       "data": { "enabled": true },
 *       "control": {
 *         "environments": ["www", "betasd"],
 *         "countries": ["GB", "IE"],
 *         "inids": ["..."],
 *         "platforms": ["web", "android"],
 *         "loggedin": true,
 *         "rollout": 30
 *       }
 *     },
 *     "lyrics": { "data": true }
 *   }
 * }
 * ```
 *
 * A flag is on when every condition its `control` names holds (absent conditions always hold); an
 * "on" flag yields its `data`, an "off" flag is absent. `control` is strict: a node with a key we
 * do not understand is rejected (off), because ignoring a misspelt condition would widen the flag
 * to everybody. One bad node does not take the others down.
 */

/** Spec 000 §6, §9: "Environments www, cisd, betasd, dev." */
export const featureEnvironments = ["www", "cisd", "betasd", "dev"] as const;
export type FeatureEnvironment = (typeof featureEnvironments)[number];

export const featurePlatforms = ["web", "ios", "android"] as const;
export type FeaturePlatform = (typeof featurePlatforms)[number];

/** Spec 000 §9: "Feature-flag rollout: percentage 0 to 100 from a hash of the user id." */
export const rolloutMaxPercent = 100;

export const featureControlSchema = v.strictObject({
  environments: v.optional(v.array(v.picklist(featureEnvironments))),
  /** ISO 3166 codes, compared case-insensitively. */
  countries: v.optional(v.array(v.string())),
  /** Install ids (inid) the flag is limited to. */
  inids: v.optional(v.array(v.string())),
  platforms: v.optional(v.array(v.picklist(featurePlatforms))),
  loggedin: v.optional(v.boolean()),
  rollout: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(rolloutMaxPercent))),
});
export type FeatureControl = v.InferOutput<typeof featureControlSchema>;

export const featureNodeSchema = v.strictObject({
  data: v.unknown(),
  control: v.optional(featureControlSchema),
});
export type FeatureNode = v.InferOutput<typeof featureNodeSchema>;

export type FeatureConfig = { featureflags: Record<string, FeatureNode> };

/** Spec 000 §8: "Failed feature-flag load: the default config is used." Everything off. */
export const defaultFeatureConfig: FeatureConfig = { featureflags: {} };

const configEnvelopeSchema = v.object({
  // valibot's record reads an array as a map of indexes; a list of flags is a different format.
  featureflags: v.pipe(
    v.unknown(),
    v.check((flags) => !Array.isArray(flags), "featureflags is a map of named nodes"),
    v.record(v.string(), v.unknown()),
  ),
});

export type ParsedFeatureConfig = {
  config: FeatureConfig;
  /** Names of nodes dropped because they did not fit the schema. */
  rejected: string[];
  /** False when the whole payload was unusable and the default config stands in. */
  usable: boolean;
};

export function parseFeatureConfig(json: unknown): ParsedFeatureConfig {
  const envelope = v.safeParse(configEnvelopeSchema, json);
  if (!envelope.success) return { config: defaultFeatureConfig, rejected: [], usable: false };
  const featureflags: Record<string, FeatureNode> = {};
  const rejected: string[] = [];
  for (const [name, raw] of Object.entries(envelope.output.featureflags)) {
    const node = v.safeParse(featureNodeSchema, raw);
    if (node.success) featureflags[name] = node.output;
    else rejected.push(name);
  }
  return { config: { featureflags }, rejected, usable: true };
}

export type FeatureConfigSource = "server" | "remote" | "default";

export type LoadedFeatureConfig = {
  config: FeatureConfig;
  source: FeatureConfigSource;
  /** Nodes dropped because they did not fit the schema. */
  rejected: string[];
};

/**
 * Spec 000 §7: "in server mode the config is supplied instead"; §8: "Failed feature-flag load:
 * the default config is used". A usable `supplied` config (the one the page was rendered with)
 * is taken as is; otherwise `fetchConfig` is asked; any failure gives the default config. The
 * server calls this with the services proxy, the browser with its request helper.
 */
export async function loadFeatureConfig(options: {
  supplied?: unknown;
  fetchConfig: () => Promise<unknown>;
}): Promise<LoadedFeatureConfig> {
  if (options.supplied !== undefined) {
    const parsed = parseFeatureConfig(options.supplied);
    if (parsed.usable) return { config: parsed.config, source: "server", rejected: parsed.rejected };
  }
  try {
    const parsed = parseFeatureConfig(await options.fetchConfig());
    if (parsed.usable) return { config: parsed.config, source: "remote", rejected: parsed.rejected };
  } catch {
    // Falls through to the default config; the caller sees source "default".
  }
  return { config: defaultFeatureConfig, source: "default", rejected: [] };
}

export type FeatureContext = {
  environment: FeatureEnvironment;
  country: string;
  inid: string | undefined;
  platform: FeaturePlatform;
  loggedin: boolean;
  /** The id rollouts are bucketed by: the web id on the website, the install id in the app. */
  userId: string | undefined;
};

/** Evaluated flags: the `data` of each flag that is on. */
export type Features = Record<string, unknown>;

export function evaluateFeatures(config: FeatureConfig, context: FeatureContext): Features {
  const features: Features = {};
  for (const [name, node] of Object.entries(config.featureflags)) {
    if (isControlSatisfied(name, node.control, context)) features[name] = node.data;
  }
  return features;
}

export function isFeatureOn(features: Features, name: string): boolean {
  return Object.hasOwn(features, name);
}

const enabledDataSchema = v.object({ enabled: v.boolean() });

/** On, and not switched off by its data: `{ "enabled": false }` turns a flag off wherever it is on. */
export function isFeatureEnabled(features: Features, name: string): boolean {
  if (!isFeatureOn(features, name)) return false;
  const data = v.safeParse(enabledDataSchema, features[name]);
  return !data.success || data.output.enabled;
}

/** The names of the flags enabled for a visitor: what the page and its browser code switch on. */
export function enabledFeatureNames(features: Features): string[] {
  return Object.keys(features)
    .filter((name) => isFeatureEnabled(features, name))
    .sort();
}

export function isControlSatisfied(
  name: string,
  control: FeatureControl | undefined,
  context: FeatureContext,
): boolean {
  if (!control) return true;
  if (control.environments && !control.environments.includes(context.environment)) return false;
  if (control.countries) {
    const country = context.country.toUpperCase();
    if (!control.countries.some((code) => code.toUpperCase() === country)) return false;
  }
  if (control.inids && (context.inid === undefined || !control.inids.includes(context.inid))) return false;
  if (control.platforms && !control.platforms.includes(context.platform)) return false;
  if (control.loggedin !== undefined && control.loggedin !== context.loggedin) return false;
  if (control.rollout !== undefined) return isInRollout(name, context.userId, control.rollout);
  return true;
}

/**
 * A user is in a rollout of p percent when their bucket, in [0, 100) with two decimals, is below p.
 * The bucket comes from FNV-1a (32 bit, then mixed) of "{flag}:{userId}": stable across visits, servers and
 * browsers, and salted with the flag name so that each flag reaches its own share of users rather
 * than the same first 10 % getting every experiment. Without a user id only 100 % includes.
 */
export function isInRollout(flag: string, userId: string | undefined, percent: number): boolean {
  if (percent >= rolloutMaxPercent) return true;
  if (percent <= 0 || userId === undefined) return false;
  return rolloutBucket(flag, userId) < percent;
}

export function rolloutBucket(flag: string, userId: string): number {
  return (fmix32(fnv1a32(`${flag}:${userId}`)) % 10_000) / 100;
}

const fnvOffsetBasis = 0x811c9dc5;
const fnvPrime = 0x01000193;

/** FNV-1a, 32 bit, over the UTF-8 bytes of `text`. */
export function fnv1a32(text: string): number {
  let hash = fnvOffsetBasis;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, fnvPrime);
  }
  return hash >>> 0;
}

/** murmur3's finaliser: the low bits of FNV-1a depend only on the low bits of the input bytes. */
function fmix32(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
