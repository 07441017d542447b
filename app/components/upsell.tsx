import { useRouteLoaderData } from "@remix-run/react";
import { useUserFlags } from "~/components/runtime";
import type { RootData } from "~/root";
import { useTranslation } from "~/strings";
import { defaultLanguageKey, localizedPath } from "../../edge/languages";

/**
 * Spec 002 §6 "trial goes to the subscribe page": the streaming service's own subscription page, a
 * streaming-service host, so inside the app the deep-link rule (in-app.ts `deepLinkHosts`) hands it
 * to the music app. A redemption goes to the offer page of the offer the app named.
 */
export const trialHref = "https://music.apple.com/subscribe";

/**
 * The streaming-service upsell (spec 000 §4 "shows only in the native app when the user is neither
 * connected nor a member"; spec 002 §6). It follows the runtime's user flags, which exist only in
 * the browser, so nothing renders on the server and hydration matches.
 */
export function Upsell() {
  const flags = useUserFlags();
  const { t, strings } = useTranslation("app");
  const root = useRouteLoaderData<RootData>("root");
  const type = flags?.showUpsell;
  // Without its strings the upsell would show keys: better none at all.
  if (!type || !strings.hasNamespace("app")) return null;
  return (
    <aside className="card section" aria-labelledby="upsell-title" data-upsell={type}>
      <p id="upsell-title">
        <strong>{t("upsell.title")}</strong>
      </p>
      <p className="muted">{t(`upsell.${type}Text`)}</p>
      <a
        className="button"
        href={
          type === "redemption" && flags.offer
            ? localizedPath(root?.lang ?? defaultLanguageKey, `/campaign/${flags.offer}`)
            : trialHref
        }
      >
        {t(`upsell.${type}Action`)}
      </a>
    </aside>
  );
}
