import { type AuthState, signInFlags } from "#app/account/browser/auth.ts";
import type { CloudProvider } from "#app/account/browser/cloud-auth.ts";
import { createRuntimeAuth } from "#app/account/browser/runtime-auth.ts";
import { findAppHost } from "#app/bridge/browser/app-host.ts";
import type { Bridge } from "#app/bridge/browser/bridge.ts";
import type { SharePopup } from "#app/bridge/browser/bridge-commands.ts";
import {
  inAppSupportNotice,
  interceptDeepLinks,
  type UserFlags,
  userFlagsOf,
} from "#app/bridge/browser/in-app.ts";
import { type HeardOffline, startHeardOffline } from "#app/offline/browser/heard-offline.ts";
import { registerServiceWorker } from "#app/offline/browser/register.ts";
import type { CloudKitConfig, LoginState } from "#rules/account.ts";
import { readHashParams, readParams } from "#rules/address-params.ts";
import { visitBeaconParams } from "#rules/beacon-params.ts";
import { readCookies } from "#rules/cookies.ts";
import { SiteError } from "#rules/errors.ts";
import { asksNotToBeTracked } from "#rules/global-privacy-control.ts";
import { type LanguageKey, localizedPath } from "#rules/languages.ts";
import { deviceModelOf } from "#rules/user-agent.ts";
import {
  type BeaconSender,
  type BridgeBeacon,
  createBeaconSender,
  firstShowParams,
  pageviewParams,
  preloadParams,
  watchNavigation,
} from "./beacons";
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
import { createImporter, createInfoBar, type InfoMessage } from "./info-bar";
import { createListeners } from "./listeners";
import { createNetlog, isNetlogEnabled, type Netlog } from "./netlog";
import { interceptOutboundLinks } from "./outbound";
import { watchRipples } from "./ripple";
import { startApp } from "./startup";
import { connectionState, createSiteStorage, ensureWebId, type SiteStorage } from "./storage";
import { browserVisibilityObserver, createFirstShowWatcher } from "./visibility";

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
  /** The feature flags the server enabled for this visitor (the root's data). */
  features: readonly string[];
  /** The edge's in-app rule (the app's config cookie): no service worker there (decision 057). */
  inApp: boolean;
  /**
   * The offline page (decision 057), which a service worker may show a signed-in person from its
   * anonymous copy: its account is unknown, so the start-up does not sign anyone in or out.
   */
  offlineShell: boolean;
  /**
   * The screen name (page type) of the page the document started on: the start-up's statistics
   * (preload, DNS health) are this page's, sent before its first page view.
   */
  screenname: string;
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
  /** Decision 057: recordings heard offline, kept on the device and identified once back online. */
  heardOffline: HeardOffline;
  /** Calls `listener` when the device's recent identifications change under the page (decision 057). */
  onRecentIdentifications(listener: () => void): () => void;
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
 * The visitor id the edge set in its cookie. It is not in the document: a cached document is
 * shared by every anonymous visitor of its key (edge/document-cache.ts).
 */
export function webIdCookieOf(cookieHeader: string): string | undefined {
  return readCookies(cookieHeader).webId;
}

const browserClock = {
  now: () => Date.now(),
  setTimeout: (run: () => void, ms: number) => window.setTimeout(run, ms),
  clearTimeout: (handle: unknown) => window.clearTimeout(handle as number),
};

/**
 * The bridge on the website, where no host object exists: nothing can be sent and nothing arrives,
 * so no entry point is installed. It answers as the bridge answers without a host: requests fail
 * `unsupported`, notifications are not sent, commands are never run.
 */
export const websiteBridge: Bridge = {
  platform: undefined,
  isSupported: () => false,
  isNative: () => false,
  about: () => undefined,
  onAbout: () => () => undefined,
  request: () => Promise.reject(new SiteError("unsupported", "No bridge support")),
  notify: () => false,
  handle: () => () => undefined,
  receive: () => undefined,
  dispose: () => undefined,
};

/** The runtime's part inside the app's webview; the website never loads it (decision 027, part 5). */
export type InAppPart = typeof import("#app/bridge/browser/in-app-runtime.ts");

/**
 * Loads the runtime's part inside the app, where the app's host object is; undefined on the
 * website. Inside the app this is one more round trip before the bridge's handshake, paid there
 * so that no website visit pays for the bridge's code.
 */
export async function loadInAppPart(): Promise<InAppPart | undefined> {
  return findAppHost(window) ? import("#app/bridge/browser/in-app-runtime.ts") : undefined;
}

/**
 * Starts the browser runtime once per document, in the spec's order: storage and visitor id,
 * the native bridge (beacons go over it inside the app), beacons, then start-up (user and feature
 * flags → ready → preload statistic; the locale and base config came with the document). Runs only
 * in an effect. `inApp` is the app's part (in-app-runtime.ts), loaded only inside the app.
 */
export function startRuntime(options: RuntimeOptions, inApp: InAppPart | undefined): SiteRuntime {
  const storage = createSiteStorage();
  const visitor = ensureWebId(storage, {
    serverWebId: options.webId,
    untracked: asksNotToBeTracked({
      navigatorFlag: (navigator as { globalPrivacyControl?: unknown }).globalPrivacyControl,
    }),
  });
  const app = inApp?.installInAppRuntime(window);
  const bridge = app?.bridge ?? websiteBridge;
  const auth = createRuntimeAuth(storage, options);
  const beacons = createSiteBeacons(options, {
    bridge,
    sendOverBridge: app?.sendBeacon,
    storage,
    visitor,
    login: auth.login,
  });
  const netlog = createNetlog({ enabled: isNetlogEnabled(window.location.href, options.features) });
  const notices = createNoticeBoard(options.onNotices);
  const infoBar = createListeners<InfoMessage | undefined>();
  const infoBarMessages = createInfoBar(infoBar.emit, browserClock);
  const importOnDemand = createImporter(infoBarMessages, {
    ...browserClock,
    isOnline: () => navigator.onLine,
  });
  // Decision 057: the service worker (none inside the app) and the recordings heard offline.
  const serviceWorker = "serviceWorker" in navigator ? navigator.serviceWorker : undefined;
  registerServiceWorker({
    inApp: options.inApp || app !== undefined,
    offlinePath: localizedPath(options.lang, "/offline"),
    window,
    container: serviceWorker,
  });
  const recent = createListeners<void>();
  const offline = startHeardOffline({
    storage,
    window,
    showInfo: (message) => void infoBarMessages.show(message),
    onRecent: () => recent.emit(),
  });
  const user = createListeners<UserFlags>();
  const userFlags = () =>
    userFlagsOf({
      inApp: bridge.isSupported() && bridge.about() !== undefined,
      connected: connectionState(storage) === "connected",
      about: bridge.about(),
    });
  const publishUser = () => user.emit(userFlags());

  function showOrientation() {
    const size = { width: window.innerWidth, height: window.innerHeight, inApp: bridge.isSupported() };
    notices.set("orientation", needsOrientationNotice(size));
  }
  showOrientation();
  let aboutNotice: SupportNotice | undefined;

  const cleanups = [
    ...(app?.start({ ...options, beacons, storage, signOut: () => auth.signOut() }) ?? []),
    offline.stop,
    interceptDeepLinks(document, {
      inApp: bridge.isSupported(),
      assign: (url) => window.location.assign(url),
      sendBeacon: (href) =>
        void beacons.send({ beaconType: "userevent", beaconId: "outbound", providerdesc: href }),
    }),
    bridge.onAbout((about) => {
      // The app may send about-bridge again (an updated app, a new member flag): the latest counts.
      const next = inAppSupportNotice(about, { userAgent: navigator.userAgent });
      notices.replace(aboutNotice, next);
      aboutNotice = next;
      publishUser();
    }),
    storage.onConnection((event) => {
      if (event.type === "connection-change") publishUser();
    }),
    watchOnline(
      window,
      () => navigator.onLine,
      (online) => notices.set("offline", !online),
    ),
    interceptOutboundLinks(document, {
      origin: window.location.origin,
      beacons,
      assign: (url) => window.location.assign(url),
    }),
    storage.watchOtherTabs(window),
    watchRipples(document, browserClock),
    // Spec 000 §2: the app's screens are laid out for a phone held upright.
    watchResize(window, showOrientation),
  ];

  // Signed in to the account service, the songs identified on this device move into the
  // library (once: each leaves the list as the service takes it). iCloud's library is not ours to write.
  let moving = false;
  cleanups.push(
    auth.onAuth((state) => {
      if (moving || state.phase !== "initialized" || !state.login || state.login.method === "icloud") return;
      moving = true;
      // Loaded only for a signed-in visitor (decision 027, part 4); a failed load moves nothing this time.
      void import("#app/recognition/browser/recent-identifications.ts")
        .then(({ moveRecentIdentificationsToLibrary }) =>
          moveRecentIdentificationsToLibrary(storage, (input, init) => fetch(input, init), Date.now()),
        )
        .then(
          (outcome) => {
            if (outcome.signedOut) auth.signOut();
          },
          () => undefined,
        )
        .finally(() => {
          moving = false;
        });
    }),
  );

  let featureFlags: string[] = [];
  void startSite({
    storage,
    // The offline page's account is unknown (decision 057): its anonymous copy must not sign anyone out.
    loadUser: options.offlineShell
      ? async () => ({ loggedin: false })
      : () => auth.init((cleanup) => cleanups.push(cleanup)),
    sendPreloadStatistic: (timespent) => beacons.send(preloadParams(timespent, options.screenname)),
  }).then((state) => {
    if (state.status === "ready") featureFlags = Object.keys(state.features.config.featureflags);
    if (state.status === "ready" && !options.beaconsSuppressed)
      void reportDnsHealth(fetchStatus, beacons.send, options.screenname);
    if (state.status === "nocookies") notices.set("nocookies", true);
    else if (state.status === "failed") netlog.log("startup", state.error.type, state.error.message);
  });

  let navigation: { complete(): void } | undefined;
  let sections: { disconnect(): void } | undefined;
  return {
    beacons,
    bridge,
    storage,
    netlog,
    userFlags,
    auth: auth.state,
    featureFlags: () => featureFlags,
    importOnDemand,
    onInfoBar: infoBar.add,
    heardOffline: offline.heardOffline,
    onRecentIdentifications: recent.add,
    cloud: auth.cloud,
    onAuth: auth.onAuth,
    setAccount: auth.setAccount,
    signInWithCloudToken: auth.signInWithCloudToken,
    signOut: auth.signOut,
    onUserFlags: user.add,
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
      user.clear();
      auth.dispose();
      infoBar.clear();
      recent.clear();
      for (const cleanup of cleanups) cleanup();
    },
  };
}

/**
 * The notices above the page (spec 000 §2, §4), published to the shell whenever one comes or goes.
 */
function createNoticeBoard(publish: (notices: RuntimeNotice[]) => void) {
  const notices = new Set<RuntimeNotice>();
  return {
    /** Shows or hides `notice`; the shell hears of a change only. */
    set(notice: RuntimeNotice, shown: boolean) {
      if (shown === notices.has(notice)) return;
      if (shown) notices.add(notice);
      else notices.delete(notice);
      publish([...notices]);
    },
    /** Puts `next` in the place of `previous` (either may be none). */
    replace(previous: RuntimeNotice | undefined, next: RuntimeNotice | undefined) {
      if (previous === next) return;
      if (previous) notices.delete(previous);
      if (next) notices.add(next);
      publish([...notices]);
    },
  };
}

/**
 * The page's beacon sender: over the bridge inside the app, with the visit's fields (the document's
 * address parameters, the app, device, visitor and sign-in fields) on every beacon.
 */
function createSiteBeacons(
  options: RuntimeOptions,
  {
    bridge,
    sendOverBridge,
    storage,
    visitor,
    login,
  }: {
    bridge: Bridge;
    sendOverBridge: ((beacon: BridgeBeacon) => void) | undefined;
    storage: SiteStorage;
    visitor: { webId: string | undefined; newuser: boolean | undefined };
    login: () => LoginState | null;
  },
): BeaconSender {
  // The document's own address: its parameters hold for the whole visit (spec 000 §2).
  const queryParams = readParams(new URLSearchParams(window.location.search));
  const hashParams = readHashParams(window.location.hash);
  const visit = visitBeaconParams(queryParams, hashParams);
  const statsWindowListener =
    (queryParams["stats-window-listener"] ?? hashParams["stats-window-listener"]) === true;
  const browser = describeBrowser(navigator.userAgent, navigator.maxTouchPoints);
  const devicemodel = deviceModelOf(navigator.userAgent, navigator.maxTouchPoints);
  return createBeaconSender({
    suppressed: options.beaconsSuppressed,
    country: options.country,
    sendOverBridge,
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
}

/** The site's start-up (spec 002 §4) in the browser: its steps as this runtime takes them. */
function startSite({
  storage,
  loadUser,
  sendPreloadStatistic,
}: {
  storage: SiteStorage;
  loadUser: () => Promise<{ loggedin: boolean }>;
  sendPreloadStatistic: (timespent: number) => unknown;
}) {
  return startApp({
    cookiesEnabled: () =>
      cookiesEnabled({ cookieEnabled: navigator.cookieEnabled, storageWorks: storage.isAvailable }),
    loadUser,
    loadFeatures: () => loadBrowserFeatureConfig(),
    ready: (ok) => {
      document.documentElement.dataset.ready = String(ok);
    },
    sendPreloadStatistic,
    startedAt: performance.timeOrigin,
  });
}

/** A DNS health probe: only the status counts; the body is dropped so the request ends. */
async function fetchStatus(path: string): Promise<Response> {
  const response = await fetch(path, { cache: "no-store" });
  await response.body?.cancel();
  return response;
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
