import { useEffect, useMemo, useState } from "react";
import { createCloudLibrary } from "#app/library/browser/cloud-library.ts";
import { type LibraryItem, libraryItemOf } from "#app/library/library.ts";
import type { SiteRuntime } from "#app/shell/browser/runtime.ts";
import type { RootData } from "#app/shell/root-data.ts";
import { useTranslation } from "#app/shell/strings.ts";
import type { CloudKitConfig } from "#rules/account.ts";
import { tagPageSize } from "#rules/library.ts";
import { EmptyLibrary, LibraryRow } from "./view";

type CloudState =
  | { status: "loading"; items: LibraryItem[] }
  | { status: "ok"; items: LibraryItem[]; start: number; fromCache: boolean }
  | { status: "failed"; items: LibraryItem[] };

/**
 * The library of a person signed in with iCloud, read from cloud storage in the browser (the
 * gate: app/routes/($lang).myshazam._index/cloud-library.tsx). Its code loads only for such a person.
 */
export default function CloudLibraryList({
  identifyHref,
  runtime,
  root,
  cloudKit,
}: {
  identifyHref: string;
  runtime: SiteRuntime;
  root: RootData;
  cloudKit: CloudKitConfig;
}) {
  const { t } = useTranslation("library");
  const library = useMemo(
    () =>
      createCloudLibrary({
        config: cloudKit,
        fetch: (url, init) => fetch(url, init),
        storage: runtime.storage,
        lang: root.lang,
        country: root.country,
      }),
    [runtime, root, cloudKit],
  );
  const [state, setState] = useState<CloudState>({ status: "loading", items: [] });

  const load = (start: number) => {
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
