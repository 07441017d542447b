import { useLocation, useNavigate } from "@remix-run/react";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { RuntimeNotice, SiteRuntime } from "~/client/runtime";
import type { RootData } from "~/root";

const RuntimeContext = createContext<SiteRuntime | undefined>(undefined);

/** The browser runtime (beacons, storage, bridge); undefined during SSR and before start-up. */
export function useRuntime(): SiteRuntime | undefined {
  return useContext(RuntimeContext);
}

/**
 * Starts the browser runtime once after hydration (browser-only code never runs during SSR),
 * sends a page view per location, and shows the shell's notices.
 */
export function RuntimeProvider({ data, children }: { data: RootData; children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [runtime, setRuntime] = useState<SiteRuntime>();
  const [notices, setNotices] = useState<RuntimeNotice[]>([]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one runtime per document, started once.
  useEffect(() => {
    let started: SiteRuntime | undefined;
    let cancelled = false;
    void import("~/client/runtime").then(({ startRuntime }) => {
      if (cancelled) return;
      started = startRuntime({
        lang: data.lang,
        country: data.country,
        beaconsSuppressed: data.beaconsSuppressed,
        webId: data.webId,
        inid: data.inid,
        navigate: (path) => navigate(path),
        openPopup: (popup) => navigate(popup.path, { state: { share: popup.data } }),
        onNotices: setNotices,
      });
      setRuntime(started);
    });
    return () => {
      cancelled = true;
      started?.dispose();
    };
  }, []);

  useEffect(() => {
    runtime?.pageview({ screenname: data.pageType, path: location.pathname });
  }, [runtime, location.pathname, data.pageType]);

  return (
    <RuntimeContext.Provider value={runtime}>
      <Notices notices={notices} />
      {children}
    </RuntimeContext.Provider>
  );
}

function Notices({ notices }: { notices: RuntimeNotice[] }) {
  const { t } = useTranslation("common");
  if (notices.length === 0) return null;
  return (
    <div className="notice-bar" role="status">
      {notices.map((notice) => (
        <p key={notice}>{notice === "offline" ? t("error.offline") : t(`notice.${notice}`)}</p>
      ))}
    </div>
  );
}
