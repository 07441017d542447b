import { lazy, Suspense } from "react";
import { useUserFlags } from "#app/shell/runtime.tsx";
import { useTranslation } from "#app/shell/strings.ts";

// The card shows only inside the app, after the runtime has started: its code loads then. A chunk
// that fails to load shows no upsell rather than the error page.
const UpsellCard = lazy(() => import("./upsell-card").catch(() => ({ default: () => null })));

/**
 * The streaming-service upsell (spec 000 §4 "shows only in the native app when the user is neither
 * connected nor a member"; spec 002 §6). It follows the runtime's user flags, which exist only in
 * the browser, so nothing renders on the server and hydration matches.
 */
export function Upsell() {
  const flags = useUserFlags();
  const { strings } = useTranslation("app");
  // Without its strings the upsell would show keys: better none at all.
  if (!flags?.showUpsell || !strings.hasNamespace("app")) return null;
  return (
    <Suspense fallback={null}>
      <UpsellCard flags={flags} />
    </Suspense>
  );
}
