import * as v from "valibot";
import type { SiteStorage } from "#app/shell/browser/storage.ts";
import type { CloudKitConfig } from "#rules/account.ts";
import { cloudSessionPoll, type LoginState } from "#rules/account.ts";
import type { AuthProvider, ProviderReport } from "./auth";

/**
 * The device maker's cloud provider (spec 002 §7 "Cloud-storage provider"): iCloud through
 * CloudKit Web Services, straight from the browser with the container's API token (a public
 * value, made for web pages) and the person's web auth token (`icloud.token` in storage).
 *
 * - The session check is `users/current`: 200 is signed in; 421 AUTHENTICATION_REQUIRED carries
 *   the `redirectURL` where the person signs in with their Apple ID (spec 002 §8 "Cloud session
 *   error with redirectURL | User stays logged out").
 * - Sign-in opens that address in the login popup; Apple sends the popup back to this site's
 *   /login/icloud/complete (the API token's "URL Redirect" sign-in callback) with
 *   `ckWebAuthToken`, which that page hands to its opener (app/account/browser/login-popup.ts).
 * - Spec 002 §4 "The cloud-storage provider polls the session every 30 s, at most 20 times,
 *   while attached": a sign-in or sign-out in another tab or device shows without a reload.
 */

const cloudKitHost = "https://api.apple-cloudkit.com";

const currentUserSchema = v.looseObject({
  userRecordName: v.string(),
  firstName: v.optional(v.string()),
  lastName: v.optional(v.string()),
});
const authRequiredSchema = v.looseObject({
  ckErrorCode: v.string(),
  redirectURL: v.pipe(v.string(), v.url()),
});

export type CloudDeps = {
  fetch: (url: string) => Promise<Response>;
  storage: SiteStorage;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

export type CloudProvider = AuthProvider & {
  /** Apple's sign-in address from the last session check, when signed out. */
  signInUrl(): string | undefined;
  /** The web auth token the sign-in popup brought back: stored, then the session checked. */
  acceptToken(token: string): Promise<ProviderReport>;
  /** Polls the session while attached; `onChange` hears each change of signed in or out. */
  attach(onChange: (report: ProviderReport) => void): () => void;
};

/**
 * A CloudKit Web Services address: `[path]/database/1/[container]/[environment]/[database]/[operation]`
 * with `?ckAPIToken=…&ckWebAuthToken=…` (Apple's CloudKit Web Services Reference, "Composing Web
 * Service Requests" → "Accessing CloudKit Using an API Token"; the web auth token URL-encoded).
 */
export function cloudKitUrl(
  config: CloudKitConfig,
  database: "public" | "private",
  operation: string,
  webAuthToken: string | undefined,
): string {
  const url = new URL(
    `/database/1/${encodeURIComponent(config.container)}/${config.environment}/${database}/${operation}`,
    cloudKitHost,
  );
  url.searchParams.set("ckAPIToken", config.apiToken);
  if (webAuthToken) url.searchParams.set("ckWebAuthToken", webAuthToken);
  return url.href;
}

export function currentUserUrl(config: CloudKitConfig, webAuthToken: string | undefined): string {
  return cloudKitUrl(config, "public", "users/current", webAuthToken);
}

function cloudLoginState(user: v.InferOutput<typeof currentUserSchema>): LoginState {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ");
  return {
    loggedin: true,
    authenticationType: "ICLOUD",
    method: "icloud",
    storage: "cloud",
    // The library's zone (spec 002 §3 "zone name shazam-library") is looked up by the library.
    hasLibraryZone: false,
    // What the header's account menu shows: the Apple ID's name when the person shares it.
    email: name || "iCloud",
  };
}

export function cloudProvider(config: CloudKitConfig, deps: CloudDeps): CloudProvider {
  let redirectUrl: string | undefined;
  let lastStatus: ProviderReport["status"] | undefined;

  async function check(): Promise<ProviderReport> {
    const stored = deps.storage.get("icloud.token");
    const token = stored.ok && typeof stored.value === "string" ? stored.value : undefined;
    const response = await deps.fetch(currentUserUrl(config, token));
    const body = await response.json().catch(() => undefined);
    if (response.status === 200) {
      const user = v.safeParse(currentUserSchema, body);
      if (!user.success) throw new Error("CloudKit: users/current answered an unknown shape");
      redirectUrl = undefined;
      return { status: "loggedin", state: cloudLoginState(user.output) };
    }
    const required = v.safeParse(authRequiredSchema, body);
    if (response.status === 421 && required.success) {
      redirectUrl = required.output.redirectURL;
      // A token that no longer signs in is of no use to keep.
      if (token) deps.storage.remove("icloud.token");
      return { status: "loggedout" };
    }
    throw new Error(`CloudKit: users/current answered ${response.status}`);
  }

  async function checkAndRemember(): Promise<ProviderReport> {
    const report = await check();
    lastStatus = report.status;
    return report;
  }

  return {
    name: "icloud",
    init: checkAndRemember,
    signInUrl: () => redirectUrl,
    async acceptToken(token) {
      deps.storage.set("icloud.token", token);
      return checkAndRemember();
    },
    attach(onChange) {
      let polls = 0;
      let handle: unknown;
      let attached = true;
      const poll = () => {
        if (!attached || polls >= cloudSessionPoll.maxPolls) return;
        polls += 1;
        void check()
          .then((report) => {
            if (!attached) return;
            if (report.status !== lastStatus) {
              lastStatus = report.status;
              onChange(report);
            }
          })
          // A failed poll changes nothing: the next one asks again.
          .catch(() => {})
          .finally(() => {
            if (attached) handle = deps.setTimeout(poll, cloudSessionPoll.intervalMs);
          });
      };
      handle = deps.setTimeout(poll, cloudSessionPoll.intervalMs);
      return () => {
        attached = false;
        deps.clearTimeout(handle);
      };
    },
  };
}
