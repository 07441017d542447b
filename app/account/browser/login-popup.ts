import { openCenteredPopup, tellOpener } from "#app/shell/browser/popup.ts";
import { loginPopup } from "#rules/account.ts";

/**
 * The login popup (spec 002 §9 "login popup 600x500"): a provider's sign-in page opens in a
 * window of its own, centred over the page, and the page learns the outcome by a message from
 * this site's own callback. Spec 002 §5 "If the login popup fails to open, an alert 'popup
 * blocked' is shown": `openLoginPopup` answers null and the caller shows it.
 */

/** The message the callback page posts to the window that opened it. */
export type SignInMessage = {
  type: "tw-signin";
  /** `declined`: the person said no at the provider (no error statistic, spec 002 §5). */
  outcome: "signedin" | "declined" | "failed";
  provider: "google" | "icloud";
  token?: string;
};

export function openLoginPopup(view: Window, url: string): Window | null {
  return openCenteredPopup(view, url, "tw-login", loginPopup);
}

/** Calls `onMessage` for sign-in messages from this site's own pages only; returns the unsubscribe. */
export function onSignInMessage(view: Window, onMessage: (message: SignInMessage) => void): () => void {
  const listener = (event: MessageEvent) => {
    if (event.origin !== view.location.origin) return;
    const data = event.data as Partial<SignInMessage> | null;
    if (data?.type !== "tw-signin") return;
    if (data.outcome !== "signedin" && data.outcome !== "declined" && data.outcome !== "failed") return;
    if (data.provider !== "google" && data.provider !== "icloud") return;
    onMessage({
      type: "tw-signin",
      outcome: data.outcome,
      provider: data.provider,
      token: typeof data.token === "string" ? data.token : undefined,
    });
  };
  view.addEventListener("message", listener);
  return () => view.removeEventListener("message", listener);
}

/** From the callback page in the popup: tells the opener and closes after `closeAfterMs`. */
export function reportToOpener(view: Window, message: SignInMessage, closeAfterMs = 600): boolean {
  return tellOpener(view, message, closeAfterMs);
}
