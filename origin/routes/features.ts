import { featureConfig } from "#origin/db/features.ts";
import type { OriginApp } from "#origin/env.ts";
import { cachePolicy, json, notFound } from "#origin/http.ts";

/** The feature configuration the apps read, one file per app. */
export function registerFeatures(origin: OriginApp) {
  /** Spec 000 §7 `GET /services/config/features{app}.json`. */
  origin.get("/config/:file", async (c) => {
    const match = /^features([\w-]*)\.json$/.exec(c.req.param("file"));
    if (!match) throw notFound(`No config ${c.req.param("file")}`);
    const config = await featureConfig(c.var.db, match[1] ?? "");
    if (config === undefined) throw notFound(`No feature config for app "${match[1]}"`);
    return json(c, config, cachePolicy.features);
  });
}
