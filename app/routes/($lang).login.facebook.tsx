import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { AccountScreen } from "#app/account/account-screen.tsx";
import { titledScreen } from "#app/information/information-page.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import accountStyles from "#app/styles/account.css";
import { localizedPath } from "#rules/path.ts";

// Spec 000 §2 "sign-in deprecation notice for a social provider": Facebook sign-in has ended;
// the same library is reached by signing in with the account's e-mail address.

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export function loader({ params, context }: LoaderFunctionArgs) {
  return {
    ...titledScreen({ params, context }, "account", "account:pageTitle.facebook"),
    emailHref: localizedPath(context.edge.lang, "/login"),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? unlistedPageMeta(data.title) : []);

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
