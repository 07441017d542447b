import { lazy, Suspense } from "react";
import { useRuntime } from "~/components/runtime";

const StreamingConnectionSection = lazy(() => import("~/components/streaming-connection-section"));

/**
 * The streaming-service connection section (app/components/streaming-connection-section.tsx).
 * Connecting needs the browser runtime, so nothing renders before it has started (nor on the
 * server); its code (PKCE, storage, the confirm overlay) is loaded then, not with the page.
 */
export function StreamingConnection() {
  const runtime = useRuntime();
  if (!runtime) return null;
  return (
    <Suspense fallback={null}>
      <StreamingConnectionSection />
    </Suspense>
  );
}
