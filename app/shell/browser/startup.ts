import { SiteError } from "#rules/errors.ts";

/**
 * The browser start-up of spec 000 §4: "locale, user, feature flags and product config load; then
 * beforeReady fires; then ready; then a preload statistic is sent. A failed setup still notifies
 * ready with a false flag. The app fails at start without cookie parameters."
 *
 * The locale and the product config (the base config: sections, frames) come with the document:
 * the edge chose the language and rendered the page's strings into it, and Remix's route manifest
 * is the base config. Nothing of the site runs between "loaded" and "ready", so there are no
 * beforeReady hooks (decision 046). What the browser loads is, in order: the cookie check, the
 * user (flag conditions read the login state), the feature flags. Each step is injected, so the
 * order itself is what is tested here.
 */

export type StartupSteps<User, Features> = {
  /** Whether cookies and local storage work (see `cookiesEnabled` in environment.ts). */
  cookiesEnabled: () => boolean;
  loadUser: () => Promise<User>;
  /** Must not fail for a failed config load: it answers the default config instead. */
  loadFeatures: (user: User) => Promise<Features>;
  /** Called exactly once: true when the app is ready, false when set-up failed. */
  ready: (ok: boolean) => void;
  /** The preload statistic, sent after a successful `ready` with ms since `startedAt`. */
  sendPreloadStatistic: (timespent: number) => unknown;
  /** Epoch ms the page started (navigation start); default the moment `startApp` is called. */
  startedAt?: number;
  /** Default `Date.now`. */
  now?: () => number;
};

export type StartupState<User, Features> =
  | { status: "ready"; timespent: number; user: User; features: Features }
  /** Cookies or local storage are disabled: the UI shows the no-cookies notice. */
  | { status: "nocookies" }
  | { status: "failed"; error: SiteError };

export async function startApp<User, Features>(
  steps: StartupSteps<User, Features>,
): Promise<StartupState<User, Features>> {
  const now = steps.now ?? Date.now;
  const startedAt = steps.startedAt ?? now();
  let loaded: { user: User; features: Features };
  try {
    if (!steps.cookiesEnabled()) {
      steps.ready(false);
      return { status: "nocookies" };
    }
    const user = await steps.loadUser();
    loaded = { user, features: await steps.loadFeatures(user) };
  } catch (error) {
    steps.ready(false);
    return { status: "failed", error: asSiteError(error) };
  }
  steps.ready(true);
  const timespent = Math.max(0, now() - startedAt);
  try {
    await steps.sendPreloadStatistic(timespent);
  } catch {
    // A statistic never undoes a started app; the beacon sender reports its own failures.
  }
  return { status: "ready", timespent, ...loaded };
}

function asSiteError(error: unknown): SiteError {
  if (error instanceof SiteError) return error;
  return new SiteError("jserror", error instanceof Error ? error.message : String(error));
}
