import { Link, useLocation, useNavigate } from "@remix-run/react";
import { type MouseEvent, useSyncExternalStore } from "react";
import type { ShareData } from "#app/bridge/bridge-schema.ts";
import { openNewWebView } from "#app/bridge/browser/bridge-commands.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { shareDataOf, shareTargets } from "#app/ui/browser/share-targets.ts";
import { Overlay } from "./overlay";

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

/**
 * Spec 000 §2 "/share: full-screen pop-up carrying the share data for the app's share-sheet
 * command": a takeover overlay. Closing (Escape too) goes back to the page the command found.
 */
export function ShareSheet({ share, homeHref }: { share: ShareData; homeHref: string }) {
  const { t } = useTranslation("app");
  const navigate = useNavigate();
  const location = useLocation();
  const runtime = useRuntime();
  const targets = shareTargets(share);

  const close = () => {
    // "default" is the key of the first entry of this tab's history: nothing to go back to.
    if (location.key === "default") navigate(homeHref, { replace: true });
    else navigate(-1);
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
    <Overlay placement="takeover" className="share-sheet" labelledBy="share-title" onClose={close}>
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
    </Overlay>
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
