import type { LoginState } from "../../edge/account";
import type { LanguageKey } from "../../edge/languages";
import {
  type AuthState,
  clearSignedInStorage,
  emailProvider,
  initAuth,
  signInFlags,
  unavailableProvider,
} from "./auth";
import {
  type BeaconSender,
  createBeaconSender,
  pageviewParams,
  preloadParams,
  watchNavigation,
} from "./beacons";
import { type Bridge, installBridge } from "./bridge";
import { beaconOverBridge, registerAppCommands, type SharePopup } from "./bridge-commands";
import { cookiesEnabled, describeBrowser, type SupportNotice, watchOnline } from "./environment";
import { loadBrowserFeatureConfig } from "./features";
import { inAppSupportNotice, interceptDeepLinks, type UserFlags, userFlagsOf } from "./in-app";
import { createNetlog, isNetlogEnabled, type Netlog } from "./netlog";
import { startApp } from "./startup";
import { connectionKey, createSiteStorage, ensureWebId, type SiteStorage } from "./storage";

/**
 * Marks a track view: a track result from the app then navigates in-page (spec 000 §2 "If a track
 * frame exists the site navigates in-page").
 */
export const trackViewSelector = "[data-track-view]";

/** A notice the shell shows above the page (start-up and environment states of spec 000 §2, §4). */
export type RuntimeNotice = "nocookies" | "offline" | SupportNotice;

export type RuntimeOptions = {
  lang: LanguageKey;
  country: string;
  beaconsSuppressed: boolean;
  /** The edge's visitor id, so browser and server bucket rollouts alike. */
  webId: string | undefined;
  inid: string | undefined;
  /** The signed-in account the server read from the session cookie, or null. */
  account: LoginState | null;
  /** Client-side navigation (Remix's navigate). */
  navigate: (path: string) => void;
  openPopup: (popup: SharePopup) => void;
  onNotices: (notices: RuntimeNotice[]) => void;
};

export type SiteRuntime = {
  beacons: BeaconSender;
  bridge: Bridge;
  storage: SiteStorage;
  netlog: Netlog;
  /**
   * Spec 000 §3 user object: membership from the app's member flag, the streaming-service
   * connection, and the upsell to show. Outside the app, or before the about-bridge data arrived
   * (membership still unknown), no upsell.
   */
  userFlags(): UserFlags;
  /** Calls `listener` with the user flags after each about-bridge message and connection change. */
  onUserFlags(listener: (flags: UserFlags) => void): () => void;
  /** Spec 002 §4 auth init state: not started, initializing, initialized (with the login state). */
  auth(): AuthState;
  /** The account changed under the page (signed in or out, the root data revalidated). */
  setAccount(account: LoginState | null): void;
  /** A page view: the per-page statistic, and the 2500 ms navigation-timeout clock. */
  pageview(page: { screenname: string; path: string }): void;
  dispose(): void;
};

/**
 * Starts the browser runtime once per document, in the spec's order: storage and visitor id,
 * the native bridge (beacons go over it inside the app), beacons, then start-up (locale, user,
 * feature flags and product config → ready → preload statistic). Runs only in an effect.
 */
export function startRuntime(options: RuntimeOptions): SiteRuntime {
  const notices = new Set<RuntimeNotice>();
  const publish = () => options.onNotices([...notices]);
  let aboutNotice: SupportNotice | undefined;
  const storage = createSiteStorage();
  const visitor = ensureWebId(storage, { serverWebId: options.webId });
  const bridge = installBridge(window);
  const browser = describeBrowser(navigator.userAgent, navigator.maxTouchPoints);
  let auth: AuthState = { phase: "notstarted" };
  const login = () => (auth.phase === "initialized" ? auth.login : null);
  const beacons = createBeaconSender({
    suppressed: options.beaconsSuppressed,
    country: options.country,
    sendOverBridge: bridge.isSupported() ? beaconOverBridge(bridge) : undefined,
    defaults: () => ({
      lang: options.lang,
      webId: visitor.webId,
      newuser: visitor.newuser,
      inid: options.inid,
      inapp: bridge.isSupported(),
      ua: navigator.userAgent,
      ...browser,
      ...signInFlags(login()),
    }),
  });
  const netlog = createNetlog({ enabled: isNetlogEnabled(window.location.href) });
  const userListeners = new Set<(flags: UserFlags) => void>();
  const userFlags = () => {
    const connection = storage.get(connectionKey);
    return userFlagsOf({
      inApp: bridge.isSupported() && bridge.about() !== undefined,
      connected: connection.ok && connection.value !== undefined,
      about: bridge.about(),
    });
  };
  const publishUser = () => {
    const flags = userFlags();
    for (const listener of userListeners) listener(flags);
  };

  const cleanups = [
    registerAppCommands(bridge, {
      langKey: options.lang,
      hasTrackView: () => document.querySelector(trackViewSelector) !== null,
      navigate: options.navigate,
      setParentLocation: (path) => {
        (window.top ?? window).location.href = path;
      },
      openPopup: options.openPopup,
    }),
    interceptDeepLinks(document, {
      inApp: bridge.isSupported(),
      assign: (url) => window.location.assign(url),
      sendBeacon: (href) =>
        void beacons.send({ beaconType: "userevent", beaconId: "outbound", providerdesc: href }),
    }),
    bridge.onAbout((about) => {
      // The app may send about-bridge again (an updated app, a new member flag): the latest counts.
      if (aboutNotice) notices.delete(aboutNotice);
      aboutNotice = inAppSupportNotice(about, { userAgent: navigator.userAgent });
      if (aboutNotice) notices.add(aboutNotice);
      publish();
      publishUser();
    }),
    storage.onConnection((event) => {
      if (event.type === "connection-change") publishUser();
    }),
    watchOnline(
      window,
      () => navigator.onLine,
      (online) => {
        if (online) notices.delete("offline");
        else notices.add("offline");
        publish();
      },
    ),
    storage.watchOtherTabs(window),
    () => bridge.dispose(),
  ];

  const startedAt = performance.timeOrigin;
  void startApp({
    loadLocale: async () => {},
    cookiesEnabled: () =>
      cookiesEnabled({ cookieEnabled: navigator.cookieEnabled, storageWorks: storage.isAvailable }),
    loadUser: async () => {
      const state = await initAuth(
        [emailProvider(options.account), unavailableProvider("google"), unavailableProvider("icloud")],
        (next) => {
          auth = next;
        },
      );
      const loggedin = state.phase === "initialized" && state.login !== null;
      if (loggedin) storage.set("loggedin", true);
      else clearSignedInStorage(storage);
      return { loggedin };
    },
    loadFeatures: () => loadBrowserFeatureConfig(),
    loadProductConfig: async () => ({}),
    ready: (ok) => {
      document.documentElement.dataset.ready = String(ok);
    },
    sendPreloadStatistic: (timespent) => beacons.send(preloadParams(timespent)),
    startedAt,
  }).then((state) => {
    if (state.status === "nocookies") {
      notices.add("nocookies");
      publish();
    } else if (state.status === "failed") {
      netlog.log("startup", state.error.type, state.error.message);
    }
  });

  let navigation: { complete(): void } | undefined;
  return {
    beacons,
    bridge,
    storage,
    netlog,
    userFlags,
    auth: () => auth,
    setAccount(account) {
      if (auth.phase !== "initialized") return;
      auth = { ...auth, login: account };
      if (account) storage.set("loggedin", true);
      else clearSignedInStorage(storage);
    },
    onUserFlags(listener) {
      userListeners.add(listener);
      return () => userListeners.delete(listener);
    },
    pageview(page) {
      navigation?.complete();
      navigation = watchNavigation(beacons, {
        ...page,
        isComplete: () => document.readyState === "complete",
      });
      void beacons.send(pageviewParams(page));
    },
    dispose() {
      navigation?.complete();
      userListeners.clear();
      for (const cleanup of cleanups) cleanup();
    },
  };
}
