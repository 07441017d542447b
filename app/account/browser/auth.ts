import { cloudLibraryKey, type SiteStorage } from "#app/shell/browser/storage.ts";
import type { LoginState } from "#rules/account.ts";

/**
 * Spec 002 §4 "Auth init: not started, initializing, initialized once both providers are
 * initialised; the first one reporting loggedin sets the login state. Failure sets logged out and
 * auth:initialized false."
 *
 * The two providers: the web provider (the account service: e-mail links and Google; its state
 * arrives with the page, read by the server from the HttpOnly session cookie) and the device
 * maker's cloud (iCloud, app/account/browser/cloud-auth.ts). A provider without credentials on this site
 * reports `unavailable`: it is shown as not available, never as signed out by a fake success.
 */

export type ProviderName = "web" | "icloud";

export type ProviderReport =
  | { status: "loggedin"; state: LoginState }
  | { status: "loggedout" }
  | { status: "unavailable" };

export type AuthProvider = { name: ProviderName; init(): Promise<ProviderReport> };

export type AuthState =
  | { phase: "notstarted" | "initializing" }
  | { phase: "initialized"; initialized: boolean; login: LoginState | null; available: ProviderName[] };

/** Runs every provider's init; the first to report loggedin (in provider order) sets the state. */
export async function initAuth(providers: readonly AuthProvider[], onState: (state: AuthState) => void) {
  onState({ phase: "initializing" });
  let settled: AuthState;
  try {
    const reports = await Promise.all(
      providers.map(async (provider) => ({ provider, report: await provider.init() })),
    );
    const first = reports.find(({ report }) => report.status === "loggedin");
    settled = {
      phase: "initialized",
      initialized: true,
      login: first?.report.status === "loggedin" ? first.report.state : null,
      available: reports
        .filter(({ report }) => report.status !== "unavailable")
        .map(({ provider }) => provider.name),
    };
  } catch {
    settled = { phase: "initialized", initialized: false, login: null, available: [] };
  }
  onState(settled);
  return settled;
}

/** Spec 000 §3 beacon flags `aa`, `ea`, `ga`: signed in with the device maker's cloud, e-mail, the web provider. */
export function signInFlags(login: LoginState | null): { aa: boolean; ea: boolean; ga: boolean } {
  return {
    aa: login?.method === "icloud",
    ea: login?.method === "email",
    ga: login?.method === "google",
  };
}

/** The web provider (e-mail link or Google): the state the server read from the session cookie. */
export function webProvider(account: LoginState | null): AuthProvider {
  return {
    name: "web",
    init: async () => (account ? { status: "loggedin", state: account } : { status: "loggedout" }),
  };
}

/** A provider this site has no credentials for (no CloudKit container configured): not available. */
export function unavailableProvider(name: ProviderName): AuthProvider {
  return { name, init: async () => ({ status: "unavailable" }) };
}

/**
 * Spec 002 §4 "Logout clears the provider session, stored tokens and cached tags" (the session is
 * cleared by the service; these are the browser's copies): the cloud library's cached list too.
 */
export function clearSignedInStorage(storage: SiteStorage) {
  for (const key of [
    "loggedin",
    "icloud.token",
    "icloud",
    "eat",
    "ec",
    "shazamcount",
    cloudLibraryKey,
  ] as const)
    storage.remove(key);
}
