import { Link, useLocation, useNavigate } from "@remix-run/react";
import { type KeyboardEvent, type MouseEvent, useEffect, useRef, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import type { ShareData } from "~/bridge-schema";
import { openNewWebView } from "~/client/bridge-commands";
import { shareDataOf, shareTargets } from "~/client/share-targets";
import { useRuntime } from "~/components/runtime";

const subscribeNever = () => () => {};

/**
 * False while hydrating (the server never sees location state, so the first render must match
 * its HTML), true afterwards and on client navigations.
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/** The shared data, or undefined when the page was opened without it (or during hydration). */
export function useShareData(): ShareData | undefined {
  const location = useLocation();
  const hydrated = useHydrated();
  return hydrated ? shareDataOf(location.state) : undefined;
}

const focusable = "a[href], button:not([disabled])";

/**
 * Spec 000 §2 "/share: full-screen pop-up carrying the share data for the app's share-sheet
 * command". Closing goes back to the page the command found; Escape closes, and Tab stays inside.
 */
export function ShareSheet({ share, homeHref }: { share: ShareData; homeHref: string }) {
  const { t } = useTranslation("app");
  const navigate = useNavigate();
  const location = useLocation();
  const runtime = useRuntime();
  const dialog = useRef<HTMLDivElement>(null);
  const targets = shareTargets(share);

  useEffect(() => {
    dialog.current?.focus();
  }, []);

  const close = () => {
    // "default" is the key of the first entry of this tab's history: nothing to go back to.
    if (location.key === "default") navigate(homeHref, { replace: true });
    else navigate(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== "Tab" || !dialog.current) return;
    const items = [...dialog.current.querySelectorAll<HTMLElement>(focusable)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  // Spec 002 §5, §7: inside the app a new window is a new web view, which needs a url and a title.
  const openTwitter = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!runtime?.bridge.isSupported()) return;
    event.preventDefault();
    openNewWebView(runtime.bridge, targets.twitter, t("share.twitter")).catch((error: unknown) => {
      runtime.netlog.log("share", "newWebView failed", String(error));
      window.location.assign(targets.twitter);
    });
  };

  return (
    <div
      ref={dialog}
      className="share-sheet"
      role="dialog"
      aria-modal="true"
      aria-labelledby="share-title"
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <div className="share-sheet__panel">
        <div className="share-sheet__head">
          <h1 id="share-title">{t("share.title")}</h1>
          <button type="button" className="button button--quiet" onClick={close}>
            {t("share.close")}
          </button>
        </div>
        <div className="card share-sheet__item">
          <p className="share-sheet__name">{share.title}</p>
          {share.subtitle ? <p className="muted">{share.subtitle}</p> : null}
          <p className="share-sheet__href muted">{share.href}</p>
        </div>
        <ul className="share-sheet__targets" aria-label={t("share.targets")}>
          <li>
            <a
              className="button"
              href={targets.twitter}
              target="_blank"
              rel="noopener noreferrer"
              data-share-target="twitter"
              onClick={openTwitter}
            >
              {t("share.twitter")}
            </a>
          </li>
          <li>
            <a className="button" href={targets.email} data-share-target="email">
              {t("share.email")}
            </a>
          </li>
        </ul>
      </div>
    </div>
  );
}

/** /share opened without share data (a bookmark, a reload elsewhere, JavaScript off). */
export function ShareEmpty({ homeHref }: { homeHref: string }) {
  const { t } = useTranslation("app");
  return (
    <section className="share-empty" aria-labelledby="share-title">
      <h1 id="share-title">{t("share.emptyTitle")}</h1>
      <p className="muted">{t("share.emptyText")}</p>
      <Link className="button" to={homeHref}>
        {t("share.home")}
      </Link>
    </section>
  );
}
