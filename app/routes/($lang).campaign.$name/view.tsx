import type { ReactNode } from "react";
import { CopyCode } from "#app/offers/copy-code.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { OfferState } from "#rules/offers.ts";

/**
 * The states in which this page, on this device, still leads to a code once the person does what
 * the state asks: only these show the lead that promises one. An ended offer, another country or
 * platform, an account that had its code, a limit until tomorrow or a code already given would
 * contradict it. The page's description (its search result, its share card) follows the same rule.
 */
export const leadsToCode: ReadonlySet<OfferState> = new Set<OfferState>([
  "available",
  "signInRequired",
  "openInBrowser",
  "deviceAuthRequired",
  "installStoreServices",
  "clockSkew",
]);

export type OfferPage = {
  name: string;
  /** The campaign as the page shows it; null when there is none (the "no offer" state). */
  offer: {
    service: string;
    /** "3 months", in the page's language. */
    duration: string;
    endsOn: string;
    smartphoneOnly: boolean;
    /**
     * Spec 001 §4 "Android gets up to 3 months, iOS up to 5", in the page's language; null when
     * the limits change nothing for this campaign.
     */
    limits: { android: string; ios: string } | null;
  } | null;
  signInHref: string;
  /** This page's address, to open in the browser from the app. */
  pageHref: string;
  homeHref: string;
};

/** What only the interactive page has: the redemption button and its progress. */
export type OfferActions = {
  redeem: () => void;
  retry: () => void;
  busy: boolean;
  /** A failure that is not a state of its own (network, a broken answer). */
  failed: boolean;
  onCopied: () => void;
};

/**
 * The offer page: the offer (service, months, end date, who can redeem it) and one card for the
 * state the rule decided (rules/offers.ts), with what the person can do next.
 */
export function OfferView({
  page,
  state,
  code,
  actions,
  streamingConnection,
}: {
  page: OfferPage;
  state: OfferState;
  code: string | undefined;
  actions: OfferActions;
  /**
   * Spec 001 §4 "Streaming-service connection (offer context)": connected, unconnected, expired
   * sign-in (reconnect), error (Try Again / Cancel). The route passes the connection section
   * (app/streaming/streaming-connection.tsx), which only the browser renders, under the state card.
   */
  streamingConnection?: ReactNode;
}) {
  const { t } = useTranslation("offers");
  const { Link } = usePrimitives();
  const { offer } = page;
  const vars = offer ? { service: offer.service, duration: offer.duration, date: offer.endsOn } : {};
  const retryable =
    state === "deviceAuthRequired" || state === "installStoreServices" || state === "clockSkew";
  return (
    <article className="offer" aria-labelledby="offer-title">
      <header className="offer__hero">
        <p className="offer__eyebrow">{t("eyebrow")}</p>
        <h1 id="offer-title">{offer ? t("title", vars) : t("states.noOffer.title")}</h1>
        {offer && leadsToCode.has(state) ? <p className="offer__lead">{t("lead", vars)}</p> : null}
      </header>

      <section
        className={`offer__state card offer__state--${state}`}
        aria-labelledby={offer ? "offer-state-title" : "offer-title"}
      >
        <div aria-live="polite">
          {/* Without an offer the page's heading already says so. */}
          {offer ? <h2 id="offer-state-title">{t(`states.${state}.title`, vars)}</h2> : null}
          <p>{t(`states.${state}.message`, vars)}</p>
          {actions.failed ? (
            <p className="offer__error" role="alert">
              {t("failed")}
            </p>
          ) : null}
        </div>
        {state === "redeemed" && code ? (
          <>
            <CopyCode code={code} label={t("codeLabel")} onCopied={actions.onCopied} />
            <p className="muted">{t("howTo", vars)}</p>
          </>
        ) : null}
        {state === "available" ? (
          <>
            <p>
              <button type="button" className="button" onClick={actions.redeem} disabled={actions.busy}>
                {actions.busy ? t("redeeming") : t("redeem")}
              </button>
            </p>
            <noscript>
              <p className="offer__note">{t("noScript")}</p>
            </noscript>
          </>
        ) : null}
        {retryable ? (
          <p>
            <button
              type="button"
              className="button button--quiet"
              onClick={actions.retry}
              disabled={actions.busy}
            >
              {t("tryAgain")}
            </button>
          </p>
        ) : null}
        {state === "signInRequired" ? (
          <p>
            <Link href={page.signInHref} className="button">
              {t("signIn")}
            </Link>
          </p>
        ) : null}
        {state === "openInBrowser" ? (
          <p>
            <Link href={page.pageHref} className="button" external newWindow>
              {t("openInBrowser")}
            </Link>
          </p>
        ) : null}
        {state === "noOffer" || state === "ended" || state === "limitReached" ? (
          <p>
            <Link href={page.homeHref} className="button button--quiet">
              {t("home")}
            </Link>
          </p>
        ) : null}
      </section>

      {streamingConnection ? <div className="offer__connection">{streamingConnection}</div> : null}

      {offer && state !== "ended" ? (
        <section className="offer__terms" aria-labelledby="offer-terms-title">
          <h2 id="offer-terms-title">{t("termsTitle")}</h2>
          <ul>
            <li>{t("terms.newUsers", vars)}</li>
            <li>{t("terms.country")}</li>
            <li>{t("terms.deviceAuth")}</li>
            {offer.smartphoneOnly ? <li>{t("terms.smartphoneOnly")}</li> : null}
            {offer.limits ? <li>{t("terms.limits", offer.limits)}</li> : null}
            <li>{t("terms.ends", vars)}</li>
          </ul>
        </section>
      ) : null}
    </article>
  );
}
