import { SiteError } from "../../rules/errors";

/**
 * The browser start-up of spec 000 §4: "locale, user, feature flags and product config load; then
 * beforeReady fires; then ready; then a preload statistic is sent. A failed setup still notifies
 * ready with a false flag. The app fails at start without cookie parameters."
 *
 * Order: the locale first (every later message, the no-cookies one included, needs strings); then
 * the cookie check; then the user (flag conditions read the login state); then feature flags and
 * product config together. Each step is injected, so the order itself is what is tested here.
 */

export type StartupSteps<User, Features, ProductConfig> = {
  loadLocale: () => Promise<void>;
  /** Whether cookies and local storage work (see `cookiesEnabled` in environment.ts). */
  cookiesEnabled: () => boolean;
  loadUser: () => Promise<User>;
  /** Must not fail for a failed config load: it answers the default config instead. */
  loadFeatures: (user: User) => Promise<Features>;
  loadProductConfig: () => Promise<ProductConfig>;
  /** Run in order after everything loaded and before `ready`. */
  beforeReady?: ReadonlyArray<(loaded: Loaded<User, Features, ProductConfig>) => void | Promise<void>>;
  /** Called exactly once: true when the app is ready, false when set-up failed. */
  ready: (ok: boolean) => void;
  /** The preload statistic, sent after a successful `ready` with ms since `startedAt`. */
  sendPreloadStatistic: (timespent: number) => unknown;
  /** Epoch ms the page started (navigation start); default the moment `startApp` is called. */
  startedAt?: number;
  /** Default `Date.now`. */
  now?: () => number;
};

export type Loaded<User, Features, ProductConfig> = {
  user: User;
  features: Features;
  productConfig: ProductConfig;
};

export type StartupState<User, Features, ProductConfig> =
  | ({ status: "ready"; timespent: number } & Loaded<User, Features, ProductConfig>)
  /** Cookies or local storage are disabled: the UI shows the no-cookies notice. */
  | { status: "nocookies" }
  | { status: "failed"; error: SiteError };

export async function startApp<User, Features, ProductConfig>(
  steps: StartupSteps<User, Features, ProductConfig>,
): Promise<StartupState<User, Features, ProductConfig>> {
  const now = steps.now ?? Date.now;
  const startedAt = steps.startedAt ?? now();
  let loaded: Loaded<User, Features, ProductConfig>;
  try {
    await steps.loadLocale();
    if (!steps.cookiesEnabled()) {
      steps.ready(false);
      return { status: "nocookies" };
    }
    const user = await steps.loadUser();
    const [features, productConfig] = await Promise.all([
      steps.loadFeatures(user),
      steps.loadProductConfig(),
    ]);
    loaded = { user, features, productConfig };
    for (const hook of steps.beforeReady ?? []) await hook(loaded);
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
