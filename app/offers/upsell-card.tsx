import { useRouteLoaderData } from "@remix-run/react";
import type { UserFlags } from "#app/bridge/browser/in-app.ts";
import type { RootData } from "#app/shell/root-data.ts";
import { useTranslation } from "#app/shell/strings.ts";
import { defaultLanguageKey, localizedPath } from "#rules/languages.ts";

/**
 * Spec 002 §6 "trial goes to the subscribe page": the streaming service's own subscription page, a
 * streaming-service host, so inside the app the deep-link rule (in-app.ts `deepLinkHosts`) hands it
 * to the music app. A redemption goes to the offer page of the offer the app named.
 */
export const trialHref = "https://music.apple.com/subscribe";

/** The upsell's card, for user flags that show one (app/offers/upsell.tsx decides). */
export default function UpsellCard({ flags }: { flags: UserFlags }) {
  const { t } = useTranslation("app");
  const root = useRouteLoaderData<RootData>("root");
  const type = flags.showUpsell;
  if (!type) return null;
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
