import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { informationPage } from "#app/information/information-page.server.ts";
import { privacyHrefs, privacyPolicySections } from "#app/privacy/privacy.server.ts";
import { pickResources } from "#app/shell/i18n.server.ts";
import { dateTimeFormat } from "#app/shell/intl.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import pagesStyles from "#app/styles/pages.css";
import privacyStyles from "#app/styles/privacy.css";
import { legalTextsUpdated } from "#rules/legal.ts";
import { localizedPath } from "#rules/path.ts";
import { PrivacyPolicyView } from "./view";

// The privacy policy's text (spec 000 §2 page type `privacy`, 001 §1 "privacy text"), one of the
// privacy pages beside the landing and the flows of decision 020. English body (decision 024).

export const links = () => [
  { rel: "stylesheet", href: privacyStyles },
  { rel: "stylesheet", href: pagesStyles },
];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "privacy",
    title: "privacy:pageTitle.policy",
    description: "legal:policy.description",
  } as const;
  const data = await informationPage({ params, context, request }, head, ({ lang, locale }) => {
    const hrefs = privacyHrefs(lang);
    return {
      hrefs,
      sections: privacyPolicySections({ ...hrefs, terms: localizedPath(lang, "/terms") }),
      updated: dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
        new Date(legalTextsUpdated),
      ),
    };
  });
  // The policy's text is in `legal`; its page chrome in `privacy`.
  return { ...data, legalStrings: pickResources(context.edge.lang, ["legal"]).legal };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function PrivacyPolicy() {
  const { page, strings, legalStrings } = useLoaderData<typeof loader>();
  usePageStrings("privacy", strings);
  usePageStrings("legal", legalStrings);
  return <PrivacyPolicyView page={page} />;
}
