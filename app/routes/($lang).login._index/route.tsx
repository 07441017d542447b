import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import * as v from "valibot";
import { cookieHeaders, requestEmailLink, signInProviders } from "#app/account/account.server.ts";
import { AccountScreen } from "#app/account/account-screen.tsx";
import { onSignInMessage, openLoginPopup } from "#app/account/browser/login-popup.ts";
import { checkRobot } from "#app/account/robot-check.server.ts";
import { cloudKitConfigOf, readForm, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { usePageStrings } from "#app/shell/strings.ts";
import accountStyles from "#app/styles/account.css";
import {
  emailLinkLifetimeMs,
  emailSchema,
  robotCheckAction,
  robotCheckOrigin,
  safeRedirectPath,
} from "#rules/account.ts";
import { robotCheckOf } from "#rules/env.ts";
import { localizedPath } from "#rules/path.ts";

// The e-mail entry screen and, once the link is sent, "check your email" (spec 000 §2 login
// screens). A form that works without script; the link request and its retries run on the server.

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const returnPath = safeRedirectPath(new URL(request.url).searchParams.get("redirect"));
  // Signed in already: on to where the sign-in was meant to lead.
  if (context.account) throw redirect(returnPath ?? localizedPath(lang, "/"));
  const { t } = serverStrings(lang);
  const providers = await signInProviders(context, request);
  return {
    title: t("common:pageTitle.login"),
    googleAvailable: providers.google,
    icloudAvailable: cloudKitConfigOf(context.config) !== null,
    returnPath: returnPath ?? null,
    // Turnstile's public widget key where the robot check is configured (decision 042).
    robotCheckSiteKey: robotCheckOf(context.config)?.siteKey ?? null,
    robotCheckLanguage: context.edge.locale,
    facebookHref: localizedPath(lang, "/login/facebook"),
    googleHref: localizedPath(lang, "/login/google"),
    strings: pickResources(lang, ["account"]).account,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? unlistedPageMeta(data.title) : []);

type ActionResult =
  | { outcome: "sent"; email: string }
  | {
      outcome: "invalid" | "noaccount" | "limited" | "failed" | "robot" | "robotunavailable";
      email: string;
    };

const statusOf = {
  invalid: 400,
  noaccount: 404,
  limited: 429,
  failed: 502,
  robot: 403,
  robotunavailable: 503,
} as const;

export async function action({ params, context, request }: ActionFunctionArgs) {
  requireKnownLanguage(params);
  const form = await readForm(request);
  const typed = String(form.get("email") ?? "").slice(0, 320);
  const returnPath = safeRedirectPath(String(form.get("redirect") ?? ""));
  const email = v.safeParse(emailSchema, typed);
  if (!email.success) {
    return data<ActionResult>({ outcome: "invalid", email: typed }, { status: 400 });
  }
  const robotCheck = robotCheckOf(context.config);
  if (robotCheck) {
    const checked = await checkRobot(
      context.config,
      robotCheck.secretKey,
      form,
      request.headers.get("cf-connecting-ip"),
    );
    if (checked !== "passed") {
      const outcome = checked === "robot" ? "robot" : "robotunavailable";
      return data<ActionResult>({ outcome, email: typed }, { status: statusOf[outcome] });
    }
  }
  const { outcome, setCookies } = await requestEmailLink(context, request, {
    email: email.output,
    redirect: returnPath,
    inid: context.edge.inid ?? "",
  });
  const headers = cookieHeaders(setCookies);
  if (outcome === "sent") return data<ActionResult>({ outcome, email: email.output }, { headers });
  return data<ActionResult>({ outcome, email: typed }, { status: statusOf[outcome], headers });
}

const messageKeys = {
  invalid: "errors.invalidEmail",
  noaccount: "errors.noAccount",
  limited: "errors.tooMany",
  failed: "errors.sendFailed",
  robot: "errors.robot",
  robotunavailable: "errors.robotUnavailable",
} as const;

/**
 * Cloudflare Turnstile's widget (decision 042). Its script is added by an effect, not rendered:
 * React does not run a `<script>` it inserts on a client-side navigation. The script renders every
 * `.cf-turnstile` element when it loads, or this one on a later visit of the page; the widget puts
 * its token in the form's `cf-turnstile-response` field.
 */
function RobotCheck({ siteKey, language }: { siteKey: string; language: string }) {
  const widget = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const turnstile = (window as { turnstile?: { render(element: HTMLElement): unknown } }).turnstile;
    if (turnstile && widget.current) {
      turnstile.render(widget.current);
      return;
    }
    if (document.querySelector(`script[src="${turnstileScript}"]`)) return;
    const script = document.createElement("script");
    script.src = turnstileScript;
    script.async = true;
    document.head.appendChild(script);
  }, []);
  return (
    <div
      ref={widget}
      className="cf-turnstile account-robot-check"
      data-sitekey={siteKey}
      data-action={robotCheckAction}
      data-language={language}
    />
  );
}

const turnstileScript = `${robotCheckOrigin}/turnstile/v0/api.js`;

/**
 * "Continue with iCloud": Apple's sign-in in the login popup (spec 002 §9 600×500), its outcome
 * from this site's /login/icloud/complete; the popup blocked → the spec's alert.
 */
function CloudSignIn({
  available,
  returnPath,
  t,
}: {
  available: boolean;
  returnPath: string | null;
  t: (key: string) => string;
}) {
  const runtime = useRuntime();
  const [message, setMessage] = useState<"popupBlocked" | "failed" | null>(null);
  useEffect(() => {
    if (!runtime?.cloud) return;
    const unsubscribe = onSignInMessage(window, async (signIn) => {
      if (signIn.provider !== "icloud") return;
      const signedIn = signIn.token ? await runtime.signInWithCloudToken(signIn.token) : false;
      if (signedIn) window.location.assign(returnPath ?? "/");
      else setMessage("failed");
    });
    return unsubscribe;
  }, [runtime, returnPath]);
  if (!available) {
    return (
      <p className="account-provider">
        <span>{t("login.icloud")}</span>
        <span className="muted">{t("login.notAvailable")}</span>
      </p>
    );
  }
  const open = () => {
    const url = runtime?.cloud?.signInUrl();
    if (!url) return setMessage("failed");
    setMessage(openLoginPopup(window, url) ? null : "popupBlocked");
  };
  return (
    <div className="account-provider">
      <button type="button" className="link-button" onClick={open} disabled={!runtime}>
        {t("login.icloud")}
      </button>
      {message ? (
        <p className="account-message" role="alert">
          {t(message === "popupBlocked" ? "login.popupBlocked" : "login.icloudFailed")}
        </p>
      ) : null}
    </div>
  );
}

export default function Login() {
  const {
    strings,
    returnPath,
    facebookHref,
    googleHref,
    googleAvailable,
    icloudAvailable,
    robotCheckSiteKey,
    robotCheckLanguage,
  } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = usePageStrings("account", strings);
  const runtime = useRuntime();
  const emailRef = useRef<HTMLInputElement>(null);
  const sending = navigation.state === "submitting";

  // Spec 002 §8 "fails after more than 3 retries (statistic emailsentfailure)".
  useEffect(() => {
    if (result?.outcome === "failed") {
      void runtime?.beacons.send({
        beaconType: "error",
        beaconId: "emailsentfailure",
        errorcode: "serviceerror",
      });
    }
    if (result && result.outcome !== "sent") emailRef.current?.focus();
  }, [result, runtime]);

  if (result?.outcome === "sent") {
    const again = returnPath ? `?${new URLSearchParams({ redirect: returnPath })}` : ".";
    return (
      <AccountScreen title={t("checkEmail.title")}>
        <p role="status">
          {t("checkEmail.body", { email: result.email, minutes: emailLinkLifetimeMs / 60_000 })}
        </p>
        <p>{t("checkEmail.sameDevice")}</p>
        <p className="muted">{t("checkEmail.spam")}</p>
        <Link to={again} className="button button--quiet" reloadDocument>
          {t("checkEmail.again")}
        </Link>
      </AccountScreen>
    );
  }

  const error = result ? t(messageKeys[result.outcome]) : undefined;
  return (
    <AccountScreen title={t("login.title")}>
      <p>{t("login.intro")}</p>
      {/* With the robot check, each try posts the whole page: a Turnstile token is good for one try. */}
      <Form method="post" className="account-form" noValidate reloadDocument={robotCheckSiteKey !== null}>
        <label htmlFor="login-email">{t("login.emailLabel")}</label>
        <input
          ref={emailRef}
          id="login-email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={254}
          defaultValue={result?.email ?? ""}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "login-error" : "login-passwordless"}
        />
        {error ? (
          <p id="login-error" className="account-message" role="alert">
            {error}
          </p>
        ) : (
          <p id="login-passwordless" className="muted">
            {t("login.passwordless")}
          </p>
        )}
        {returnPath ? <input type="hidden" name="redirect" value={returnPath} /> : null}
        {robotCheckSiteKey ? <RobotCheck siteKey={robotCheckSiteKey} language={robotCheckLanguage} /> : null}
        <button type="submit" className="button" disabled={sending}>
          {sending ? t("login.sending") : t("login.submit")}
        </button>
      </Form>
      <section className="account-providers" aria-labelledby="login-other">
        <h2 id="login-other">{t("login.otherWays")}</h2>
        <p className="account-provider">
          <Link
            to={returnPath ? `${googleHref}?${new URLSearchParams({ redirect: returnPath })}` : googleHref}
          >
            {t("login.google")}
          </Link>
          {googleAvailable ? null : <span className="muted">{t("login.notAvailable")}</span>}
        </p>
        <CloudSignIn available={icloudAvailable} returnPath={returnPath} t={t} />
        <p className="account-provider">
          <Link to={facebookHref}>{t("login.facebookEnded")}</Link>
        </p>
      </section>
    </AccountScreen>
  );
}
