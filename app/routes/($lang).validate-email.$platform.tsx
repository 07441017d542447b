import {
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { cookieHeaders, validateEmailLink } from "#app/account/account.server.ts";
import { AccountScreen } from "#app/account/account-screen.tsx";
import { requireKnownLanguage, throwSiteError } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { usePageStrings } from "#app/shell/strings.ts";
import accountStyles from "#app/styles/account.css";
import { emailLinkLifetimeMs, safeRedirectPath, validationPlatforms } from "#rules/account.ts";
import { SiteError } from "#rules/errors.ts";
import { localizedPath } from "#rules/path.ts";

// Spec 002 §2 "/validate-email/web (web_mobile on iOS, iPad and Android): landing of the e-mail
// validation link; query parameters key and customtoken, optional redirect, optional temp=1".
// A valid link signs in and goes on to `redirect` (a path of this site only); every refusal has
// its own screen and status.

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

// A sign-in landing belongs to one browser at one moment: no cache keeps it. (Remix puts a
// loader's own headers on the document only through this export; cookies it passes on itself.)
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

type Refusal = "expired" | "used" | "wrongdevice" | "unknown" | "notoken" | "failed";

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  if (!(validationPlatforms as readonly string[]).includes(params.platform ?? "")) {
    throwSiteError(new SiteError("notfound", "No such landing"));
  }
  const { lang } = context.edge;
  const url = new URL(request.url);
  const key = url.searchParams.get("key") ?? "";
  const customtoken = url.searchParams.get("customtoken") ?? "";
  const next = safeRedirectPath(url.searchParams.get("redirect")) ?? localizedPath(lang, "/");
  const screen = (refusal: Refusal, status: number) => {
    const { t } = serverStrings(lang);
    const retry = `${localizedPath(lang, "/login")}?${new URLSearchParams({ redirect: next })}`;
    return data(
      {
        refusal,
        retry,
        title: t("account:pageTitle.validate"),
        strings: pickResources(lang, ["account"]).account,
      },
      { status, headers: { "Cache-Control": "no-store" } },
    );
  };
  // Spec 002 §5 "E-mail login without a custom token fails (reported as no custom token)".
  if (customtoken === "") return screen("notoken", 400);
  const validation = await validateEmailLink(context, request, {
    key,
    customtoken,
    temp: url.searchParams.get("temp") === "1",
  });
  if (validation.outcome === "signedin") {
    throw redirect(next, { status: 303, headers: cookieHeaders(validation.setCookies) });
  }
  return screen(validation.outcome, validation.status);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? unlistedPageMeta(data.title) : []);

const screens = {
  expired: { title: "validate.expiredTitle", body: "validate.expiredBody" },
  used: { title: "validate.usedTitle", body: "validate.usedBody" },
  wrongdevice: { title: "validate.wrongDeviceTitle", body: "validate.wrongDeviceBody" },
  unknown: { title: "validate.unknownTitle", body: "validate.unknownBody" },
  notoken: { title: "validate.noTokenTitle", body: "validate.noTokenBody" },
  failed: { title: "common:error.title", body: "common:error.catchall" },
} as const;

export default function ValidateEmail() {
  const { refusal, retry, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("account", strings);
  const runtime = useRuntime();

  // Spec 002 §8 "E-mail login failures: statistic loginfailed or nocustomtoken".
  useEffect(() => {
    const beaconId = refusal === "notoken" ? "nocustomtoken" : "loginfailed";
    void runtime?.beacons.send({ beaconType: "error", beaconId, errordesc: refusal });
  }, [refusal, runtime]);

  const screen = screens[refusal];
  return (
    <AccountScreen title={t(screen.title)}>
      <p>{t(screen.body, { minutes: emailLinkLifetimeMs / 60_000 })}</p>
      <Link to={retry} className="button">
        {t("validate.newLink")}
      </Link>
    </AccountScreen>
  );
}
