import {
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { cookieHeaders, finishWebProviderSignIn } from "#app/account/account.server.ts";
import { AccountScreen } from "#app/account/account-screen.tsx";
import { reportToOpener } from "#app/account/browser/login-popup.ts";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { usePageStrings } from "#app/shell/strings.ts";
import accountStyles from "#app/styles/account.css";
import { localizedPath } from "#rules/path.ts";

// Where the web provider sends the browser back (redirect_uri). In the login popup the page tells
// its opener and closes; in a window of its own it goes on to where the sign-in started. A refusal
// has its own message; `access_denied` is the person's choice and sends no error statistic.

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

// A sign-in landing belongs to one browser at one moment: no cache keeps it. (Remix puts a
// loader's own headers on the document only through this export; cookies it passes on itself.)
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

const statusOf = {
  invalidstate: 400,
  declined: 403,
  failed: 502,
  refused: 401,
  closed: 404,
  replayed: 409,
  unavailable: 404,
} as const;
const messageOf = {
  invalidstate: "google.invalidState",
  declined: "google.declined",
  failed: "google.failed",
  refused: "google.failed",
  replayed: "google.failed",
  closed: "errors.noAccount",
  unavailable: "google.notConfigured",
} as const;

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const callback = await finishWebProviderSignIn(context, request);
  const next = callback.redirect ?? localizedPath(lang, "/");
  const headers = cookieHeaders(callback.setCookies);
  headers.set("Cache-Control", "no-store");
  if (callback.outcome === "signedin" && !callback.popup) throw redirect(next, { status: 303, headers });
  const { t } = serverStrings(lang);
  const retry = `${localizedPath(lang, "/login/google")}?${new URLSearchParams({ redirect: next })}`;
  return data(
    {
      title: t("account:pageTitle.google"),
      outcome: callback.outcome,
      popup: callback.popup,
      next,
      retry,
      strings: pickResources(lang, ["account"]).account,
    },
    { status: callback.outcome === "signedin" ? 200 : statusOf[callback.outcome], headers },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? unlistedPageMeta(data.title) : []);

export default function GoogleCallback() {
  const { outcome, popup, next, retry, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("account", strings);
  const runtime = useRuntime();

  useEffect(() => {
    // Spec 002 §8 "E-mail login failures | Statistic loginfailed": the same for the web provider,
    // but not for the person's own refusal (spec 002 §5 "access_denied … no error statistic").
    if (outcome !== "signedin" && outcome !== "declined") {
      void runtime?.beacons.send({ beaconType: "error", beaconId: "loginfailed", errorcode: outcome });
    }
  }, [outcome, runtime]);

  useEffect(() => {
    if (!popup) return;
    reportToOpener(window, {
      type: "tw-signin",
      provider: "google",
      outcome: outcome === "signedin" || outcome === "declined" ? outcome : "failed",
    });
  }, [popup, outcome]);

  if (outcome === "signedin") {
    return (
      <AccountScreen title={t("google.title")}>
        <p role="status">{t("login.signedIn")}</p>
        <Link to={next} className="button" reloadDocument>
          {t("login.goOn")}
        </Link>
      </AccountScreen>
    );
  }
  return (
    <AccountScreen title={t("google.title")}>
      <p className="account-message" role="alert">
        {t(messageOf[outcome])}
      </p>
      <div className="account-actions">
        <Link to={retry} className="button" reloadDocument>
          {t("login.tryAgain")}
        </Link>
      </div>
    </AccountScreen>
  );
}
