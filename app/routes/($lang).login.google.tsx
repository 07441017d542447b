import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { AccountScreen } from "~/components/account";
import { requireKnownLanguage } from "~/http.server";
import { createI18n, pickResources } from "~/i18n.server";
import { usePageStrings } from "~/strings";
import accountStyles from "~/styles/account.css";
import { localizedPath } from "../../edge/path";

// Spec 000 §2 "data consent from a web sign-in provider": what Google would share, shown before
// the person leaves for Google. This site has no Google OAuth client configured, so the screen
// says the provider is not available and offers e-mail instead (never a pretend success).

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ params, context }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const { t } = createI18n(lang, ["account"]);
  return {
    title: t("account:pageTitle.google"),
    emailHref: localizedPath(lang, "/login"),
    strings: pickResources(lang, ["account"]).account,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function GoogleConsent() {
  const { emailHref, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("account", strings);
  return (
    <AccountScreen title={t("google.title")}>
      <p>{t("google.consent")}</p>
      <p className="account-message" role="status">
        {t("google.notConfigured")}
      </p>
      <div className="account-actions">
        <button type="button" className="button" disabled>
          {t("google.continue")}
        </button>
        <Link to={emailHref} className="button button--quiet">
          {t("facebook.continue")}
        </Link>
      </div>
    </AccountScreen>
  );
}
