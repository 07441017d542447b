import type { RequestContext } from "#edge/request-context.ts";
import { RECORDING_CHECKPOINTS_SECONDS } from "#signature/constants.ts";
import { captureOptionsOf } from "./capture-options";

// Server only (loaders), apart from the panel component: the capture options and the signature's
// constants would otherwise ride along in every recognition page's first-visit JavaScript.
/**
 * What a loader gives a page's recognition panel (all but the screenname and strings). `webrec`:
 * the flag of that name (spec 002 §1 web recognition), enabled for the visitor.
 */
export function recognitionPanelData(edge: RequestContext, search: URLSearchParams, webrec: boolean) {
  return {
    lang: edge.lang,
    country: edge.country,
    inApp: edge.inApp,
    webrec,
    capture: captureOptionsOf(search),
    listenSeconds: RECORDING_CHECKPOINTS_SECONDS[RECORDING_CHECKPOINTS_SECONDS.length - 1] ?? 12,
  };
}
