import { createListeners } from "#app/shell/browser/listeners.ts";
import type { SiteStorage } from "#app/shell/browser/storage.ts";
import type { CloudKitConfig, LoginState } from "#rules/account.ts";
import {
  type AuthState,
  clearSignedInStorage,
  initAuth,
  type ProviderReport,
  unavailableProvider,
  webProvider,
} from "./auth";
import { type CloudProvider, cloudProvider } from "./cloud-auth";

/**
 * The runtime's sign-in state (spec 002 §4): the auth init over the web provider (the account the
 * server read) and the cloud provider (CloudKit, where configured), then what changes it later: a
 * revalidated account, a cloud token, a cloud poll, a sign-out.
 */
export function createRuntimeAuth(
  storage: SiteStorage,
  { account, cloudKit }: { account: LoginState | null; cloudKit: CloudKitConfig | null },
) {
  let auth: AuthState = { phase: "notstarted" };
  const listeners = createListeners<AuthState>();
  const setAuth = (next: AuthState) => {
    auth = next;
    if (next.phase === "initialized" && next.login) storage.set("loggedin", true);
    listeners.emit(next);
  };
  const cloud: CloudProvider | undefined = cloudKit
    ? cloudProvider(cloudKit, {
        fetch: (url) => fetch(url, { headers: { accept: "application/json" } }),
        storage,
        setTimeout: (run, ms) => window.setTimeout(run, ms),
        clearTimeout: (handle) => window.clearTimeout(handle as number),
      })
    : undefined;

  /** A report of the cloud provider after init: the server's account wins, else the cloud's. */
  function applyCloudReport(report: ProviderReport) {
    if (auth.phase !== "initialized" || account) return;
    if (report.status === "loggedin") setAuth({ ...auth, login: report.state });
    else if (auth.login?.method === "icloud") {
      clearSignedInStorage(storage);
      setAuth({ ...auth, login: null });
    }
  }

  function signOut() {
    clearSignedInStorage(storage);
    if (auth.phase === "initialized") setAuth({ ...auth, login: null });
  }

  return {
    state: () => auth,
    login: () => (auth.phase === "initialized" ? auth.login : null),
    cloud,
    onAuth: listeners.add,
    /**
     * The start-up's user step: auth init over both providers, then the cloud provider's reports.
     * `attach` keeps the cloud's cleanup.
     */
    async init(attach: (cleanup: () => void) => void): Promise<{ loggedin: boolean }> {
      const state = await initAuth([webProvider(account), cloud ?? unavailableProvider("icloud")], setAuth);
      const loggedin = state.phase === "initialized" && state.login !== null;
      if (!loggedin) clearSignedInStorage(storage);
      if (cloud) attach(cloud.attach(applyCloudReport));
      return { loggedin };
    },
    setAccount(next: LoginState | null) {
      if (auth.phase !== "initialized") return;
      if (next) return setAuth({ ...auth, login: next });
      // The page's account is the web provider's; a cloud sign-in is the cloud provider's own.
      if (auth.login?.method === "icloud") return;
      clearSignedInStorage(storage);
      setAuth({ ...auth, login: null });
    },
    async signInWithCloudToken(token: string) {
      if (!cloud) return false;
      const report = await cloud.acceptToken(token).catch(() => ({ status: "loggedout" }) as const);
      applyCloudReport(report);
      return report.status === "loggedin";
    },
    signOut,
    dispose: () => listeners.clear(),
  };
}
