import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { type MouseEvent, useEffect, useState } from "react";
import { signInProviders } from "#app/account/account.server.ts";
import { AccountScreen } from "#app/account/account-screen.tsx";
import { onSignInMessage, openLoginPopup } from "#app/account/browser/login-popup.ts";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import accountStyles from "#app/styles/account.css";
import { safeRedirectPath } from "#rules/account.ts";
import { localizedPath } from "#rules/path.ts";

// Spec 000 §2 "data consent from a web sign-in provider": what Google shares, shown before the
// person leaves for Google. "Continue" opens the login popup (600×500) when script runs, or goes
// to Google in this window without it. Without an OAuth client the provider is not available.

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

const callbackMessages = ["declined", "invalidstate", "failed", "closed", "unavailable"] as const;
type CallbackMessage = (typeof callbackMessages)[number];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const url = new URL(request.url);
  const returnPath = safeRedirectPath(url.searchParams.get("redirect"));
  const message = url.searchParams.get("message");
  const { t } = serverStrings(lang);
  const providers = await signInProviders(context, request);
  const start = localizedPath(lang, "/login/google/start");
  return {
    title: t("account:pageTitle.google"),
    available: providers.google,
    startHref: returnPath ? `${start}?${new URLSearchParams({ redirect: returnPath })}` : start,
    returnPath: returnPath ?? localizedPath(lang, "/"),
    message: (callbackMessages as readonly string[]).includes(message ?? "")
      ? (message as CallbackMessage)
      : null,
    emailHref: localizedPath(lang, "/login"),
    strings: pickResources(lang, ["account"]).account,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? unlistedPageMeta(data.title) : []);

const messageKeys: Record<CallbackMessage, string> = {
  declined: "google.declined",
  invalidstate: "google.invalidState",
  failed: "google.failed",
  closed: "errors.noAccount",
  unavailable: "google.notConfigured",
};

export default function GoogleConsent() {
  const { available, startHref, returnPath, message, emailHref, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("account", strings);
  const [popupMessage, setPopupMessage] = useState<CallbackMessage | "popupblocked" | null>(null);

  useEffect(() => {
    return onSignInMessage(window, (signIn) => {
      if (signIn.provider !== "google") return;
      // A full load: the header, the root data and every loader see the new session cookie.
      if (signIn.outcome === "signedin") window.location.assign(returnPath);
      else setPopupMessage(signIn.outcome === "declined" ? "declined" : "failed");
    });
  }, [returnPath]);

  const openPopup = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const href = `${startHref}${startHref.includes("?") ? "&" : "?"}popup=1`;
    setPopupMessage(openLoginPopup(window, href) ? null : "popupblocked");
  };

  const shown = popupMessage ?? message;
  return (
    <AccountScreen title={t("google.title")}>
      <p>{t("google.consent")}</p>
      {shown ? (
        <p className="account-message" role="alert">
          {t(shown === "popupblocked" ? "login.popupBlocked" : messageKeys[shown])}
        </p>
      ) : null}
      {available ? null : (
        <p className="account-message" role="status">
          {t("google.notConfigured")}
        </p>
      )}
      <div className="account-actions">
        {available ? (
          <a href={startHref} className="button" onClick={openPopup}>
            {t("google.continue")}
          </a>
        ) : (
          <button type="button" className="button" disabled>
            {t("google.continue")}
          </button>
        )}
        <Link to={emailHref} className="button button--quiet">
          {t("facebook.continue")}
        </Link>
      </div>
    </AccountScreen>
  );
}
