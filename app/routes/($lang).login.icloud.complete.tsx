import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { AccountScreen } from "#app/account/account-screen.tsx";
import { reportToOpener } from "#app/account/browser/login-popup.ts";
import { titledScreen } from "#app/information/information-page.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import accountStyles from "#app/styles/account.css";
import { localizedPath } from "#rules/path.ts";

// Where Apple sends the iCloud sign-in popup back: the CloudKit API token's "URL Redirect" sign-in
// callback, with `ckWebAuthToken`. The token goes to the page that opened the popup (only that
// page, of this site: postMessage with this origin) and the popup closes; the token never reaches
// the server. Opened without an opener (a copied link), it says where to go on.

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export function loader({ params, context }: LoaderFunctionArgs) {
  return {
    ...titledScreen({ params, context }, "account", "account:pageTitle.icloud"),
    loginHref: localizedPath(context.edge.lang, "/login"),
  };
}

// The token is in the address: no other site learns it through a Referer.
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? unlistedPageMeta(data.title, "no-referrer") : [];

export default function CloudSignInComplete() {
  const { loginHref, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("account", strings);
  const [reported, setReported] = useState<boolean | null>(null);
  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get("ckWebAuthToken");
    // The token leaves the address bar and the history at once.
    window.history.replaceState(null, "", window.location.pathname);
    setReported(
      reportToOpener(window, {
        type: "tw-signin",
        provider: "icloud",
        outcome: token ? "signedin" : "failed",
        token: token ?? undefined,
      }),
    );
  }, []);
  return (
    <AccountScreen title={t("login.icloud")}>
      {reported === false ? (
        <>
          <p className="account-message" role="alert">
            {t("login.icloudFailed")}
          </p>
          <Link to={loginHref} className="button" reloadDocument>
            {t("login.tryAgain")}
          </Link>
        </>
      ) : (
        <p role="status">{t("login.signedIn")}</p>
      )}
    </AccountScreen>
  );
}
