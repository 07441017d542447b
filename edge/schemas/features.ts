import * as v from "valibot";
import { featureNodeSchema } from "../feature-flags";

/**
 * `GET /services/config/features{app}.json` (spec 000 §7). Strict per node, so the origin's tests
 * prove every node it serves is one edge/feature-flags.ts understands; the edge itself parses node
 * by node with `parseFeatureConfig` so one bad node does not take the others down.
 */
export const featureConfigSchema = v.object({ featureflags: v.record(v.string(), featureNodeSchema) });
