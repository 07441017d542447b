import { useRouteLoaderData } from "@remix-run/react";
import { lazy, type ReactNode, Suspense } from "react";
import type { RootData } from "#app/shell/root-data.ts";
import { useRuntime, useSignedInAccount } from "#app/shell/runtime.tsx";
import { useTranslation } from "#app/shell/strings.ts";

// The cloud library's code (CloudKit calls, storage, their schemas) loads only for a person signed
// in with iCloud: everyone else, and every first paint, renders the fallback without it.
const CloudLibraryList = lazy(() =>
  import("./cloud-library-list").catch(() => ({ default: CloudLibraryFailed })),
);

/**
 * The library of a person signed in with iCloud (spec 002 §6 "With cloud storage type login the
 * tags come from cloud storage"): read in the browser, where the iCloud session lives, 20 songs
 * at a time; the list last read when iCloud does not answer (spec 002 §8). Anyone else sees
 * `fallback` (the sign-in card), which is also what the server renders.
 */
export function CloudLibrary({ identifyHref, fallback }: { identifyHref: string; fallback: ReactNode }) {
  const runtime = useRuntime();
  const root = useRouteLoaderData<RootData>("root");
  const account = useSignedInAccount(null);
  if (!runtime || !root?.cloudKit || account?.method !== "icloud") return <>{fallback}</>;
  return (
    <Suspense fallback={<CloudLibraryStatus message="cloudLoading" />}>
      <CloudLibraryList identifyHref={identifyHref} runtime={runtime} root={root} cloudKit={root.cloudKit} />
    </Suspense>
  );
}

function CloudLibraryStatus({ message }: { message: "cloudLoading" | "cloudFailed" }) {
  const { t } = useTranslation("library");
  return (
    <div role="status" className="library__status">
      <p>{t(message)}</p>
    </div>
  );
}

function CloudLibraryFailed() {
  return <CloudLibraryStatus message="cloudFailed" />;
}
