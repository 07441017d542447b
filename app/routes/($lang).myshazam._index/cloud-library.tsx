import { useRouteLoaderData } from "@remix-run/react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { createCloudLibrary } from "~/client/cloud-library";
import { useRuntime, useSignedInAccount } from "~/components/runtime";
import { type LibraryItem, libraryItemOf } from "~/data/library";
import type { RootData } from "~/root";
import { useTranslation } from "~/strings";
import { tagPageSize } from "../../../edge/library";
import { EmptyLibrary, LibraryRow } from "./view";

type CloudState =
  | { status: "loading"; items: LibraryItem[] }
  | { status: "ok"; items: LibraryItem[]; start: number; fromCache: boolean }
  | { status: "failed"; items: LibraryItem[] };

/**
 * The library of a person signed in with iCloud (spec 002 §6 "With cloud storage type login the
 * tags come from cloud storage"): read in the browser, where the iCloud session lives, 20 songs
 * at a time; the list last read when iCloud does not answer (spec 002 §8). Anyone else sees
 * `fallback` (the sign-in card), which is also what the server renders.
 */
export function CloudLibrary({ identifyHref, fallback }: { identifyHref: string; fallback: ReactNode }) {
  const { t } = useTranslation("library");
  const runtime = useRuntime();
  const root = useRouteLoaderData<RootData>("root");
  const account = useSignedInAccount(null);
  const signedInWithCloud = account?.method === "icloud";
  const library = useMemo(
    () =>
      runtime && root?.cloudKit && signedInWithCloud
        ? createCloudLibrary({
            config: root.cloudKit,
            fetch: (url, init) => fetch(url, init),
            storage: runtime.storage,
            lang: root.lang,
            country: root.country,
          })
        : undefined,
    [runtime, root, signedInWithCloud],
  );
  const [state, setState] = useState<CloudState>({ status: "loading", items: [] });

  const load = (start: number) => {
    if (!library || !root) return;
    setState((previous) => ({ status: "loading", items: start === 0 ? [] : previous.items }));
    const format = new Intl.DateTimeFormat(root.locale, { dateStyle: "medium", timeStyle: "short" });
    void library.tags(start, tagPageSize).then((result) => {
      if (result.status === "session-ended") {
        runtime?.signOut();
        return;
      }
      setState((previous) => {
        if (result.status === "failed") return { status: "failed", items: previous.items };
        const items = result.tags.map((tag) => libraryItemOf(tag, root.lang, format, (code) => code));
        return {
          status: "ok",
          items: [...previous.items, ...items],
          start: result.start,
          fromCache: result.fromCache,
        };
      });
    });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: one first read per library.
  useEffect(() => load(0), [library]);

  if (!library) return <>{fallback}</>;
  return (
    <>
      <div role="status" className="library__status">
        {state.status === "loading" ? <p>{t("cloudLoading")}</p> : null}
        {state.status === "failed" ? <p>{t("cloudFailed")}</p> : null}
        {state.status === "ok" && state.fromCache ? <p>{t("cloudCached")}</p> : null}
      </div>
      {state.status === "ok" && state.items.length === 0 ? (
        <EmptyLibrary identifyHref={identifyHref} />
      ) : null}
      {state.items.length > 0 ? (
        <ol className="track-list library-list" aria-label={t("listLabel")}>
          {state.items.map((item) => (
            <LibraryRow key={item.tagid} item={item} removable={false} />
          ))}
        </ol>
      ) : null}
      {state.status === "ok" && state.start !== -1 ? (
        <p className="library__pages">
          <button type="button" className="button button--quiet" onClick={() => load(state.start)}>
            {t("cloudMore")}
          </button>
        </p>
      ) : null}
    </>
  );
}
