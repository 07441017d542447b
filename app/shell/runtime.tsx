import { useLocation, useNavigate } from "@remix-run/react";
import { createContext, lazy, type ReactNode, Suspense, useContext, useEffect, useState } from "react";
import type { UserFlags } from "#app/bridge/browser/in-app.ts";
import type { InfoMessage } from "#app/shell/browser/info-bar.ts";
import type { RuntimeNotice, SiteRuntime } from "#app/shell/browser/runtime.ts";
import type { LoginState } from "#rules/account.ts";
import type { RootData } from "./root-data";
import { useTranslation } from "./strings";
// One chunk with the rest of every page's shell (app/shell/every-page.ts, decision 027).
import "#app/shell/every-page.ts";

// Loaded on demand: nobody needs the debug overlay's code until four fingers touch the screen.
const DebugTap = lazy(() => import("./debug-tap"));

const RuntimeContext = createContext<SiteRuntime | undefined>(undefined);
const UserFlagsContext = createContext<UserFlags | undefined>(undefined);

/** The browser runtime (beacons, storage, bridge); undefined during SSR and before start-up. */
export function useRuntime(): SiteRuntime | undefined {
  return useContext(RuntimeContext);
}

/**
 * The signed-in account as the browser knows it: the server's (web provider) until the runtime's
 * auth init has settled, then the auth state, which also knows a cloud (iCloud) sign-in.
 */
export function useSignedInAccount(serverAccount: LoginState | null): LoginState | null {
  const runtime = useRuntime();
  const [login, setLogin] = useState<LoginState | null | undefined>(undefined);
  useEffect(() => {
    if (!runtime) return;
    const read = () => {
      const auth = runtime.auth();
      setLogin(auth.phase === "initialized" ? auth.login : undefined);
    };
    read();
    return runtime.onAuth(read);
  }, [runtime]);
  return login === undefined ? serverAccount : login;
}

/**
 * The user object of spec 000 §3 (membership, connection, upsell), kept current from the app's
 * about-bridge messages and connection changes; undefined during SSR and before start-up.
 */
export function useUserFlags(): UserFlags | undefined {
  return useContext(UserFlagsContext);
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
  const [userFlags, setUserFlags] = useState<UserFlags>();
  const [debugTap, setDebugTap] = useState(false);
  const [info, setInfo] = useState<InfoMessage>();

  // Spec 002 §9 "Four-finger touch opens the debug overlay".
  useEffect(() => {
    const onTouch = (event: TouchEvent) => {
      if (event.touches.length >= 4) setDebugTap(true);
    };
    window.addEventListener("touchstart", onTouch, { passive: true });
    return () => window.removeEventListener("touchstart", onTouch);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one runtime per document, started once.
  useEffect(() => {
    let started: SiteRuntime | undefined;
    let cancelled = false;
    void import("#app/shell/browser/runtime.ts")
      .then(async (runtime) => ({ runtime, inApp: await runtime.loadInAppPart() }))
      .then(({ runtime: { startRuntime, webIdCookieOf }, inApp }) => {
        if (cancelled) return;
        started = startRuntime(
          {
            lang: data.lang,
            country: data.country,
            beaconsSuppressed: data.beaconsSuppressed,
            // From its cookie, not the document: a cached document is every visitor's (edge/document-cache.ts).
            webId: webIdCookieOf(document.cookie),
            inid: data.inid,
            account: data.account,
            cloudKit: data.cloudKit,
            features: data.features,
            inApp: data.inApp,
            offlineShell: data.offlineShell,
            screenname: data.pageType,
            navigate: (path) => navigate(path),
            openPopup: (popup) => navigate(popup.path, { state: { share: popup.data } }),
            onNotices: setNotices,
          },
          inApp,
        );
        started.onUserFlags(setUserFlags);
        started.onInfoBar(setInfo);
        setUserFlags(started.userFlags());
        setRuntime(started);
      });
    return () => {
      cancelled = true;
      started?.dispose();
    };
  }, []);

  useEffect(() => {
    runtime?.setAccount(data.account);
  }, [runtime, data.account]);

  useEffect(() => {
    runtime?.pageview({ screenname: data.pageType, path: location.pathname, exp_name: data.expName });
  }, [runtime, location.pathname, data.pageType, data.expName]);

  return (
    <RuntimeContext.Provider value={runtime}>
      <UserFlagsContext.Provider value={userFlags}>
        <Notices notices={notices} />
        {children}
        <InfoBar message={info} />
        {debugTap ? (
          <Suspense fallback={null}>
            <DebugTap runtime={runtime} onClose={() => setDebugTap(false)} />
          </Suspense>
        ) : null}
      </UserFlagsContext.Provider>
    </RuntimeContext.Provider>
  );
}

/** Spec 002 §2 info bar: a live region, so a screen reader reads each message as it shows. */
function InfoBar({ message }: { message: InfoMessage | undefined }) {
  const { t } = useTranslation("common");
  return (
    <div className="info-bar" role="status" aria-live="polite" data-shown={message ? "true" : undefined}>
      {message ? <p>{t(message.key, message.values)}</p> : null}
    </div>
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
