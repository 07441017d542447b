import type { CloudKitConfig, LoginState } from "../../rules/account";
import { readHashParams, readParams } from "../../rules/address-params";
import { visitBeaconParams } from "../../rules/beacon-params";
import { readCookies } from "../../rules/cookies";
import type { LanguageKey } from "../../rules/languages";
import { deviceModelOf } from "../../rules/user-agent";
import {
  type AuthState,
  clearSignedInStorage,
  initAuth,
  type ProviderReport,
  signInFlags,
  unavailableProvider,
  webProvider,
} from "./auth";
import {
  type BeaconSender,
  createBeaconSender,
  firstShowParams,
  pageviewParams,
  preloadParams,
  watchNavigation,
} from "./beacons";
import { type Bridge, installBridge } from "./bridge";
import { beaconOverBridge, registerAppCommands, type SharePopup } from "./bridge-commands";
import { type CloudProvider, cloudProvider } from "./cloud-auth";
import { connectionState } from "./connect";
import {
  cookiesEnabled,
  describeBrowser,
  needsOrientationNotice,
  type SupportNotice,
  watchOnline,
  watchResize,
} from "./environment";
import { loadBrowserFeatureConfig } from "./features";
import { reportDnsHealth } from "./health";
import { inAppSupportNotice, interceptDeepLinks, type UserFlags, userFlagsOf } from "./in-app";
import { createImporter, createInfoBar, type InfoMessage } from "./info-bar";
import { saveAppTag } from "./library";
import { createNetlog, isNetlogEnabled, type Netlog } from "./netlog";
import { interceptOutboundLinks } from "./outbound";
import { requestMatch } from "./recognition/match-service";
import { watchRipples } from "./ripple";
import { startApp } from "./startup";
import { createSiteStorage, ensureWebId, type SiteStorage } from "./storage";
import { createTagClient, createTagTracker, tagMatchOf, watchVisibility } from "./tagging";
import { browserVisibilityObserver, createFirstShowWatcher } from "./visibility";

/**
 * Marks a track view: a track result from the app then navigates in-page (spec 000 §2 "If a track
 * frame exists the site navigates in-page").
 */
export const trackViewSelector = "[data-track-view]";

/** A notice the shell shows above the page (start-up and environment states of spec 000 §2, §4). */
export type RuntimeNotice = "nocookies" | "offline" | "orientation" | SupportNotice;

export type RuntimeOptions = {
  lang: LanguageKey;
  country: string;
  beaconsSuppressed: boolean;
  /** The edge's visitor id, so browser and server bucket rollouts alike. */
  webId: string | undefined;
  inid: string | undefined;
  /** The signed-in account the server read from the session cookie, or null. */
  account: LoginState | null;
  /** The device maker's cloud sign-in (CloudKit), or null where it is not configured. */
  cloudKit: CloudKitConfig | null;
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
  /** The web auth token the iCloud sign-in popup brought back; true once it signs in. */
  signInWithCloudToken(token: string): Promise<boolean>;
  /** Spec 002 §4 "Logout clears … stored tokens and cached tags": the browser's part of signing out. */
  signOut(): void;
  /** Calls `listener` whenever the auth state changes (init, a cloud sign-in, a poll). */
  onAuth(listener: (state: AuthState) => void): () => void;
  /** The cloud provider, where CloudKit is configured: its sign-in address and token hand-over. */
  cloud: CloudProvider | undefined;
  /** Loads code on demand, once, with the info bar's loading, slow and failure messages (spec 002 §4). */
  importOnDemand<T>(name: "recognition" | "menu" | "video" | "playback", load: () => Promise<T>): Promise<T>;
  /** Calls `listener` with the info bar's message (undefined: hidden) whenever it changes. */
  onInfoBar(listener: (message: InfoMessage | undefined) => void): () => void;
  /** The names of the feature flags the start-up loaded (none before it finished), for the debug overlay. */
  featureFlags(): string[];
  /**
   * A page view: the per-page statistic, the 2500 ms navigation-timeout clock, and the first-show
   * impressions of the page's sections (each labelled `<section>` of `main`, once per page view).
   */
  pageview(page: { screenname: string; path: string; exp_name?: string }): void;
  dispose(): void;
};

/**
 * Starts the browser runtime once per document, in the spec's order: storage and visitor id,
 * the native bridge (beacons go over it inside the app), beacons, then start-up (locale, user,
 * feature flags and product config → ready → preload statistic). Runs only in an effect.
 */
/**
 * The visitor id the edge set in its cookie. It is not in the document: a cached document is
 * shared by every anonymous visitor of its key (edge/document-cache.ts).
 */
export function webIdCookieOf(cookieHeader: string): string | undefined {
  return readCookies(cookieHeader).webId;
}

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
  const authListeners = new Set<(state: AuthState) => void>();
  const setAuth = (next: AuthState) => {
    auth = next;
    if (next.phase === "initialized" && next.login) storage.set("loggedin", true);
    for (const listener of authListeners) listener(next);
  };
  const cloud = options.cloudKit
    ? cloudProvider(options.cloudKit, {
        fetch: (url) => fetch(url, { headers: { accept: "application/json" } }),
        storage,
        setTimeout: (run, ms) => window.setTimeout(run, ms),
        clearTimeout: (handle) => window.clearTimeout(handle as number),
      })
    : undefined;
  /** A report of the cloud provider after init: the server's account wins, else the cloud's. */
  const applyCloudReport = (report: ProviderReport) => {
    if (auth.phase !== "initialized" || options.account) return;
    if (report.status === "loggedin") setAuth({ ...auth, login: report.state });
    else if (auth.login?.method === "icloud") {
      clearSignedInStorage(storage);
      setAuth({ ...auth, login: null });
    }
  };
  // The document's own address: its parameters hold for the whole visit (spec 000 §2).
  const queryParams = readParams(new URLSearchParams(window.location.search));
  const hashParams = readHashParams(window.location.hash);
  const visit = visitBeaconParams(queryParams, hashParams);
  const statsWindowListener =
    (queryParams["stats-window-listener"] ?? hashParams["stats-window-listener"]) === true;
  const devicemodel = deviceModelOf(navigator.userAgent, navigator.maxTouchPoints);
  const beacons = createBeaconSender({
    suppressed: options.beaconsSuppressed,
    country: options.country,
    sendOverBridge: bridge.isSupported() ? beaconOverBridge(bridge) : undefined,
    onSent: statsWindowListener
      ? (beacon) => window.dispatchEvent(new CustomEvent("stats", { detail: beacon }))
      : undefined,
    defaults: () => ({
      ...visit,
      // The app fields of spec 000 §7's beacon path (decision 026).
      appname: bridge.isSupported() ? "app" : "web",
      appver: bridge.about()?.client.version,
      country: options.country,
      devicemodel,
      lang: options.lang,
      webId: visitor.webId,
      newuser: visitor.newuser,
      inid: options.inid,
      inapp: bridge.isSupported(),
      ua: navigator.userAgent,
      ...browser,
      ...signInFlags(login()),
      // Spec 000 §3 beacon `amc`: the streaming service is connected.
      amc: connectionState(storage) === "connected",
    }),
  });
  const netlog = createNetlog({ enabled: isNetlogEnabled(window.location.href) });
  const clock = {
    now: () => Date.now(),
    setTimeout: (run: () => void, ms: number) => window.setTimeout(run, ms),
    clearTimeout: (handle: unknown) => window.clearTimeout(handle as number),
  };
  const infoBarListeners = new Set<(message: InfoMessage | undefined) => void>();
  const infoBar = createInfoBar((message) => {
    for (const listener of infoBarListeners) listener(message);
  }, clock);
  const importOnDemand = createImporter(infoBar, { ...clock, isOnline: () => navigator.onLine });
  const tagTracker = bridge.isSupported() ? startTagTracking(bridge, options, beacons) : undefined;
  const userListeners = new Set<(flags: UserFlags) => void>();
  const userFlags = () => {
    return userFlagsOf({
      inApp: bridge.isSupported() && bridge.about() !== undefined,
      connected: connectionState(storage) === "connected",
      about: bridge.about(),
    });
  };
  const publishUser = () => {
    const flags = userFlags();
    for (const listener of userListeners) listener(flags);
  };

  function signOutHere() {
    clearSignedInStorage(storage);
    if (auth.phase === "initialized") setAuth({ ...auth, login: null });
  }

  function showOrientation() {
    const inApp = bridge.isSupported();
    if (needsOrientationNotice({ width: window.innerWidth, height: window.innerHeight, inApp }))
      notices.add("orientation");
    else if (!notices.delete("orientation")) return;
    publish();
  }
  showOrientation();

  const cleanups = [
    registerAppCommands(bridge, {
      langKey: options.lang,
      hasTrackView: () => document.querySelector(trackViewSelector) !== null,
      navigate: options.navigate,
      setParentLocation: (path) => {
        (window.top ?? window).location.href = path;
      },
      openPopup: options.openPopup,
      tagTracker,
      // Signed in to the account service: the app's tags go to the library; a 456 signs out.
      onAppTag: options.account
        ? (context) =>
            void saveAppTag((input, init) => fetch(input, init), context).then((saved) => {
              if (saved.outcome === "signedout") signOutHere();
              if (saved.outcome === "saved") storage.set("shazamcount", saved.count);
            })
        : undefined,
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
    interceptOutboundLinks(document, {
      origin: window.location.origin,
      beacons,
      assign: (url) => window.location.assign(url),
    }),
    storage.watchOtherTabs(window),
    watchRipples(document, clock),
    // Spec 000 §2: the app's screens are laid out for a phone held upright.
    watchResize(window, showOrientation),
    ...(tagTracker ? [watchVisibility(document, tagTracker), () => tagTracker.dispose()] : []),
    () => bridge.dispose(),
  ];

  const startedAt = performance.timeOrigin;
  let featureFlags: string[] = [];
  void startApp({
    loadLocale: async () => {},
    cookiesEnabled: () =>
      cookiesEnabled({ cookieEnabled: navigator.cookieEnabled, storageWorks: storage.isAvailable }),
    loadUser: async () => {
      const state = await initAuth(
        [webProvider(options.account), cloud ?? unavailableProvider("icloud")],
        setAuth,
      );
      const loggedin = state.phase === "initialized" && state.login !== null;
      if (!loggedin) clearSignedInStorage(storage);
      if (cloud) cleanups.push(cloud.attach(applyCloudReport));
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
    if (state.status === "ready") featureFlags = Object.keys(state.features.config.featureflags);
    if (state.status === "ready" && !options.beaconsSuppressed) {
      void reportDnsHealth(async (path) => {
        const response = await fetch(path, { cache: "no-store" });
        // Only the status counts; the body is dropped so the request ends.
        await response.body?.cancel();
        return response;
      }, beacons.send);
    }
    if (state.status === "nocookies") {
      notices.add("nocookies");
      publish();
    } else if (state.status === "failed") {
      netlog.log("startup", state.error.type, state.error.message);
    }
  });

  let navigation: { complete(): void } | undefined;
  let sections: { disconnect(): void } | undefined;
  return {
    beacons,
    bridge,
    storage,
    netlog,
    userFlags,
    auth: () => auth,
    featureFlags: () => featureFlags,
    importOnDemand,
    onInfoBar(listener) {
      infoBarListeners.add(listener);
      return () => infoBarListeners.delete(listener);
    },
    cloud,
    onAuth(listener) {
      authListeners.add(listener);
      return () => authListeners.delete(listener);
    },
    setAccount(account) {
      if (auth.phase !== "initialized") return;
      if (account) return setAuth({ ...auth, login: account });
      // The page's account is the web provider's; a cloud sign-in is the cloud provider's own.
      if (auth.login?.method === "icloud") return;
      clearSignedInStorage(storage);
      setAuth({ ...auth, login: null });
    },
    async signInWithCloudToken(token) {
      if (!cloud) return false;
      const report = await cloud.acceptToken(token).catch(() => ({ status: "loggedout" }) as const);
      applyCloudReport(report);
      return report.status === "loggedin";
    },
    signOut: signOutHere,
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
      sections?.disconnect();
      sections = watchSections(page.screenname, beacons);
    },
    dispose() {
      navigation?.complete();
      sections?.disconnect();
      userListeners.clear();
      authListeners.clear();
      infoBarListeners.clear();
      for (const cleanup of cleanups) cleanup();
    },
  };
}

/** The site's partner id for the app's signature requests (spec 002 §5 "Tagging init requires a partner id"). */
const tagPartnerId = "tunewave-web";

/**
 * Spec 002 §4 tag tracking inside the app: the app's signatures are matched by the site's own
 * matcher (POST /services/webrec/match, as web recognition is), one session id per tag.
 */
function startTagTracking(bridge: Bridge, options: RuntimeOptions, beacons: BeaconSender) {
  const client = createTagClient(bridge);
  client.init(tagPartnerId);
  let sessionId = crypto.randomUUID();
  const tracker = createTagTracker({
    requestSig: () => client.requestSig(),
    match: async (sample) => {
      const answer = await requestMatch({
        data: sample.signature,
        sessionId,
        lang: options.lang,
        country: options.country,
      });
      return tagMatchOf(answer, sample);
    },
    onChange: (state) => {
      document.documentElement.dataset.tagTracking = state.status;
    },
    // Spec 002 §8: a stop on an error sends an error statistic.
    onError: (error, reason) =>
      void beacons.send({
        beaconType: "error",
        beaconId: "tagging",
        errorcode: reason,
        errordesc: error.message,
      }),
  });
  return {
    ...tracker,
    start(context: Parameters<typeof tracker.start>[0]) {
      sessionId = crypto.randomUUID();
      tracker.start(context);
    },
  };
}

/**
 * Spec 000 §4 "The first time a frame becomes visible a first-show impression is sent": a frame
 * is a labelled section of the page (`<section aria-labelledby>` inside `main`), named after the
 * id of its heading, so a new section is counted without code of its own.
 */
function watchSections(screenname: string, beacons: BeaconSender) {
  const watcher = createFirstShowWatcher<Element>(
    (section) => void beacons.send(firstShowParams(section, screenname)),
    browserVisibilityObserver(),
  );
  for (const element of document.querySelectorAll("main section[aria-labelledby]")) {
    const name = element.getAttribute("aria-labelledby")?.split(" ")[0];
    if (name) watcher.watch(element, name);
  }
  return watcher;
}
