import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { informationPage } from "#app/information/information-page.server.ts";
import { featureEnabledFor } from "#app/shell/features.server.ts";
import { featureNames } from "#rules/feature-names.ts";
import { recognitionPanelData } from "./recognition-panel.server.ts";

/**
 * The loader data of a page that is the recognition panel: the identify page, and the offline page
 * the service worker keeps a copy of (docs/decisions/057-heard-offline.md), which differ in their
 * title only. The head and strings as an information page's; the panel for this request's visitor.
 */
export function recognitionPage(
  { params, context, request }: LoaderFunctionArgs,
  title: "recognition:metaTitle" | "recognition:offline.metaTitle",
) {
  const head = { namespace: "recognition", title, description: "recognition:metaDescription" } as const;
  return informationPage({ params, context, request }, head, async (edge) =>
    recognitionPanelData(
      edge,
      new URL(request.url).searchParams,
      await featureEnabledFor(context, request, featureNames.webrec),
    ),
  );
}
