import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { AccountScreen } from "~/components/account-screen";
import { requireKnownLanguage } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { usePageStrings } from "~/strings";
import accountStyles from "~/styles/account.css";
import { localizedPath } from "../../rules/path";

// Spec 000 §2 "sign-in deprecation notice for a social provider": Facebook sign-in has ended;
// the same library is reached by signing in with the account's e-mail address.

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ params, context }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const { t } = serverStrings(lang);
  return {
    title: t("account:pageTitle.facebook"),
    emailHref: localizedPath(lang, "/login"),
    strings: pickResources(lang, ["account"]).account,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function FacebookEnded() {
  const { emailHref, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("account", strings);
  return (
    <AccountScreen title={t("facebook.title")}>
      <p>{t("facebook.body")}</p>
      <Link to={emailHref} className="button">
        {t("facebook.continue")}
      </Link>
    </AccountScreen>
  );
}
