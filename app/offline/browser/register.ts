import type { OfflinePageMessage } from "./service-worker-protocol";
import { serviceWorkerUrl } from "./service-worker-protocol";

/**
 * Registers the site's service worker (docs/decisions/057-heard-offline.md) once the page has
 * loaded, and asks it to keep the offline page of the page's language. Inside the app's webview
 * it registers none and removes any it finds: the app identifies songs with its own button
 * (decisions 014, 054), so the page there has nothing to do offline. AMP pages run none of the
 * site's scripts, so they never register it.
 */
export function registerServiceWorker(options: {
  inApp: boolean;
  /** The offline page in the page's language (localizedPath(lang, "/offline")). */
  offlinePath: string;
  window: Pick<Window, "addEventListener"> & { document: Pick<Document, "readyState"> };
  container: ServiceWorkerContainer | undefined;
}): void {
  const { container } = options;
  if (!container) return;
  if (options.inApp) {
    void container
      .getRegistrations()
      .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())))
      .catch(() => undefined);
    return;
  }
  const register = () =>
    void container
      // `updateViaCache: "none"`: every update check asks the network for the script, never an HTTP cache.
      .register(serviceWorkerUrl, { scope: "/", updateViaCache: "none" })
      .then(() => container.ready)
      .then((registration) => {
        const message: OfflinePageMessage = { type: "offline-page", path: options.offlinePath };
        registration.active?.postMessage(message);
      })
      .catch(() => undefined);
  // After the page's own loading: the worker's install fetches what the offline page needs.
  if (options.window.document.readyState === "complete") register();
  else options.window.addEventListener("load", register, { once: true });
}
