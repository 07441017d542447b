import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { AccountScreen } from "#app/account/account-screen.tsx";
import { reportToOpener } from "#app/account/browser/login-popup.ts";
import { titledScreen } from "#app/information/information-page.server.ts";
import { cloudKitConfigOf } from "#app/shell/http.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import accountStyles from "#app/styles/account.css";
import { statusOfError } from "#rules/errors.ts";
import { localizedPath } from "#rules/path.ts";

// Where Apple sends the iCloud sign-in popup back: the CloudKit API token's "URL Redirect" sign-in
// callback, with `ckWebAuthToken`. The token goes to the page that opened the popup (only that
// page, of this site: postMessage with this origin) and the popup closes; the token never reaches
// the server. Opened without an opener (a copied link), it says where to go on. The popup never
// learns whether the opener's CloudKit sign-in then succeeds, so it says it is signing in, never
// that the person is signed in; without a token, or on a site where iCloud sign-in is not
// configured, it says so from the first render (the loader sees both).

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const available = cloudKitConfigOf(context.config) !== null;
  // Whether a token came, not the token: it stays out of the server's answer.
  const tokenSent = new URL(request.url).searchParams.has("ckWebAuthToken");
  return data(
    {
      ...titledScreen({ params, context }, "account", "account:pageTitle.icloud"),
      loginHref: localizedPath(context.edge.lang, "/login"),
      available,
      tokenSent,
    },
    // Nobody is signed in by a page that says it cannot: its status says so too, as the Google
    // callback's does (not configured: not found; no token: the parameter is missing).
    {
      status: !available ? statusOfError("notfound") : tokenSent ? 200 : statusOfError("invalidparam"),
    },
  );
}

/** What the popup can say: handing the token over, or why it cannot. */
type Outcome = "signingIn" | "failed" | "unavailable";

// The token is in the address: no other site learns it through a Referer.
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? unlistedPageMeta(data.title, "no-referrer") : [];

export default function CloudSignInComplete() {
  const { loginHref, strings, available, tokenSent } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("account", strings);
  const [outcome, setOutcome] = useState<Outcome>(
    !available ? "unavailable" : tokenSent ? "signingIn" : "failed",
  );
  useEffect(() => {
    const token = available ? new URLSearchParams(window.location.search).get("ckWebAuthToken") : null;
    // The token leaves the address bar and the history at once.
    window.history.replaceState(null, "", window.location.pathname);
    const reported = reportToOpener(window, {
      type: "tw-signin",
      provider: "icloud",
      outcome: token ? "signedin" : "failed",
      token: token ?? undefined,
    });
    if (!available) return;
    setOutcome(token && reported ? "signingIn" : "failed");
  }, [available]);
  return (
    <AccountScreen title={t("login.icloud")}>
      {outcome === "signingIn" ? (
        <p role="status">{t("login.signingIn")}</p>
      ) : (
        <>
          <p className="account-message" role="alert">
            {t(outcome === "unavailable" ? "login.icloudUnavailable" : "login.icloudFailed")}
          </p>
          <Link to={loginHref} className="button" reloadDocument>
            {t(outcome === "unavailable" ? "login.otherWays" : "login.tryAgain")}
          </Link>
        </>
      )}
    </AccountScreen>
  );
}
