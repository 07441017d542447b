import {
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { signInHref } from "#app/privacy/privacy.server.ts";
import { loadPage, requireKnownLanguage, siteOriginOf, throwSiteError } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { dateTimeFormat, numberFormat } from "#app/shell/intl.server.ts";
import { requestMeta } from "#app/shell/meta.server.ts";
import { type PageMeta, pageMeta } from "#app/shell/meta.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { usePageStrings } from "#app/shell/strings.ts";
import { StreamingConnection } from "#app/streaming/streaming-connection.tsx";
import connectStyles from "#app/styles/connect.css";
import offersStyles from "#app/styles/offers.css";
import { SiteError } from "#rules/errors.ts";
import {
  type DeviceAuth,
  type OfferState,
  offerDeviceOf,
  offerMonthsOn,
  offerPageStatus,
  offerState,
  platformMonthLimit,
} from "#rules/offer-state.ts";
import { canonicalUrl, localizedPath } from "#rules/path.ts";
import { campaignNameOf, loadCampaign, loadOfferAccount, offerCacheHeaders } from "./page.server";
import { leadsToCode, type OfferPage, OfferView } from "./view";

// Spec 000 §2 `/campaign/{name}` (the name is the beacons' exp_name), 001 §2, §4, §7, §8, §9: a
// promotional offer. The server decides the state from everything it knows (campaign, country,
// device, app, account); the browser adds what only it knows (a user-verifying authenticator, its
// clock) with the same rule, and redeems. No AMP form: redeeming needs the device's authenticator.

export const links = () => [
  { rel: "stylesheet", href: offersStyles },
  { rel: "stylesheet", href: connectStyles },
];

// The state depends on the visitor's country, device, app and account: only the edge's document
// cache keeps an anonymous visitor's page, under a key of the first three (a signed-in visitor
// bypasses it), until the campaign ends; browsers and other caches keep nothing (`offerCacheHeaders`).
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * The redemption's code (WebAuthn, the origin's answers and their schemas) loads once the page is
 * there, not with it: a first paint does not need it. A code that cannot load is a failed redeem.
 */
function redemption() {
  return import("#app/offers/browser/offer-redemption.ts").catch(() => ({
    deviceAuthAvailable: async () => true,
    redeemOffer: async () => ({ outcome: "failed" as const }),
  }));
}

function monthsIn(locale: string, months: number): string {
  return numberFormat(locale, { style: "unit", unit: "month", unitDisplay: "long" }).format(months);
}

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const name = campaignNameOf(params.name);
  if (name === undefined) throwSiteError(new SiteError("invalidparam", "Malformed offer name"));
  const { lang, locale, country, inApp } = context.edge;
  const { t } = serverStrings(lang);
  const [campaign, offerAccount] = await loadPage(() =>
    Promise.all([loadCampaign(context, name), loadOfferAccount(context, request, name)]),
  );
  const now = Date.now();
  const device = offerDeviceOf(request.headers.get("user-agent"));
  const inputs = { campaign, country, inApp, account: offerAccount.account };
  const state = offerState({ ...inputs, now, device, deviceAuth: "unknown" });
  const url = new URL(request.url);
  const offer = campaign
    ? {
        service: campaign.service,
        duration: monthsIn(locale, offerAccount.months ?? offerMonthsOn(campaign, device.platform)),
        endsOn: dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
          new Date(campaign.endsAt),
        ),
        smartphoneOnly: campaign.smartphoneOnly,
        limits:
          campaign.platforms.includes("android") &&
          campaign.platforms.includes("ios") &&
          campaign.months > platformMonthLimit.android
            ? {
                android: monthsIn(locale, Math.min(campaign.months, platformMonthLimit.android)),
                ios: monthsIn(locale, Math.min(campaign.months, platformMonthLimit.ios)),
              }
            : null,
      }
    : null;
  const page: OfferPage = {
    name,
    offer,
    signInHref: signInHref(lang, url.pathname),
    pageHref: canonicalUrl(siteOriginOf(context.config), lang, `/campaign/${name}`),
    homeHref: localizedPath(lang, "/"),
  };
  const vars = offer ? { service: offer.service, duration: offer.duration, date: offer.endsOn } : {};
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: offer ? `${t("offers:title", vars)} | ${t("common:siteName")}` : t("common:pageTitle.campaign"),
    // Where the page does not promise a code (leadsToCode), neither does its description: it says the state.
    description:
      offer && leadsToCode.has(state) ? t("offers:lead", vars) : t(`offers:states.${state}.message`, vars),
    type: "website",
  };
  return data(
    {
      page,
      meta,
      state,
      code: offerAccount.account.signedIn ? offerAccount.account.code : undefined,
      // What the browser needs to run the same rule with what only it knows.
      rule: { ...inputs, now },
      redeemPath: localizedPath(lang, `/campaign/${name}/redeem`),
      strings: pickResources(lang, ["offers"]).offers,
      connectStrings: pickResources(lang, ["connect"]).connect,
    },
    {
      status: offerPageStatus(state),
      headers: !campaign
        ? undefined
        : offerAccount.account.signedIn
          ? { "Cache-Control": "private, no-store" }
          : offerCacheHeaders(campaign, now),
    },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function Offer() {
  const loaded = useLoaderData<typeof loader>();
  usePageStrings("offers", loaded.strings);
  usePageStrings("connect", loaded.connectStrings);
  const runtime = useRuntime();
  const revalidator = useRevalidator();
  const [deviceAuth, setDeviceAuth] = useState<DeviceAuth>("unknown");
  const [clockSkewMs, setClockSkewMs] = useState<number | undefined>(undefined);
  const [redeemed, setRedeemed] = useState<{ code: string; months: number } | undefined>(undefined);
  const [refused, setRefused] = useState<OfferState | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  // What only the browser knows: its authenticator, its clock, and the iPad behind a Mac agent.
  // Measured when the page's data arrives (a later retry must not count the time spent reading).
  useEffect(() => {
    setClockSkewMs(Date.now() - loaded.rule.now);
  }, [loaded.rule.now]);
  useEffect(() => {
    let current = true;
    void redemption().then(async ({ deviceAuthAvailable }) => {
      if (!(await deviceAuthAvailable()) && current) setDeviceAuth("unavailable");
    });
    return () => {
      current = false;
    };
  }, []);

  const device =
    typeof navigator === "undefined"
      ? undefined
      : offerDeviceOf(navigator.userAgent, navigator.maxTouchPoints);
  const ruled =
    device && clockSkewMs !== undefined
      ? offerState({ ...loaded.rule, device, deviceAuth, clockSkewMs, now: loaded.rule.now })
      : loaded.state;
  const state: OfferState = redeemed ? "redeemed" : (refused ?? ruled);
  const code = redeemed?.code ?? loaded.code;
  const userevent = (beaconId: string) =>
    void runtime?.beacons.send({
      beaconType: "userevent",
      beaconId,
      screenname: "campaign",
      exp_name: loaded.page.name,
    });

  async function redeem() {
    setBusy(true);
    setFailed(false);
    userevent("offer.redeem");
    const outcome = await redemption().then(({ redeemOffer }) =>
      redeemOffer({
        endpoint: loaded.redeemPath,
        fetch: window.fetch.bind(window),
        credentials: navigator.credentials,
        now: Date.now,
      }),
    );
    setBusy(false);
    switch (outcome.outcome) {
      case "code":
        setRedeemed({ code: outcome.code, months: outcome.months });
        userevent("offer.code");
        return;
      case "deviceAuthFailed":
        setDeviceAuth("failed");
        return;
      case "clockSkew":
        setRefused("clockSkew");
        return;
      case "refused":
        setRefused(outcome.state);
        return;
      case "signedOut":
        revalidator.revalidate();
        return;
      case "failed":
        setFailed(true);
        return;
    }
  }

  return (
    <OfferView
      page={loaded.page}
      state={state}
      code={code}
      actions={{
        redeem,
        // Asks the browser again: the person may have turned on an authenticator meanwhile.
        retry: () => {
          setRefused(undefined);
          setDeviceAuth("unknown");
          void redemption().then(async ({ deviceAuthAvailable }) => {
            if (!(await deviceAuthAvailable())) setDeviceAuth("unavailable");
          });
        },
        busy,
        failed,
        onCopied: () => userevent("offer.copy"),
      }}
      streamingConnection={<StreamingConnection />}
    />
  );
}
