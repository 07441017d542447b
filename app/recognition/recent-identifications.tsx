import { lazy, Suspense } from "react";
import { useRuntime } from "#app/shell/runtime.tsx";
import type { RecentIdentificationsProps } from "./recent-identifications-list";

// The list reads the device's storage, which only the started runtime has: its code (storage, the
// entries' schemas) loads then, not with the page (decision 027). A chunk that fails to load
// shows no list, as an empty storage would.
const RecentIdentificationsList = lazy(() =>
  import("./recent-identifications-list").catch(() => ({ default: () => null })),
);

/**
 * The songs identified on this device, for a visitor who is not signed in (signed in,
 * they are in the library: the runtime moves them there). Read from the device's storage after
 * start-up, so the server renders nothing; each one can be removed.
 */
export function RecentIdentifications(props: RecentIdentificationsProps) {
  const runtime = useRuntime();
  if (!runtime) return null;
  return (
    <Suspense fallback={null}>
      <RecentIdentificationsList {...props} />
    </Suspense>
  );
}
