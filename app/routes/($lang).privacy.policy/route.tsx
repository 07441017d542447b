import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requestMeta } from "~/data/meta.server";
import { privacyHrefs, privacyPolicySections } from "~/data/privacy.server";
import { requireKnownLanguage } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { type PageMeta, pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import pagesStyles from "~/styles/pages.css";
import privacyStyles from "~/styles/privacy.css";
import { legalTextsUpdated } from "../../../rules/legal";
import { localizedPath } from "../../../rules/path";
import { PrivacyPolicyView } from "./view";

// The privacy policy's text (spec 000 §2 page type `privacy`, 001 §1 "privacy text"), one of the
// privacy pages beside the landing and the flows of decision 020. English body (decision 024).

export const links = () => [
  { rel: "stylesheet", href: privacyStyles },
  { rel: "stylesheet", href: pagesStyles },
];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang, locale } = context.edge;
  const { t } = serverStrings(lang);
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("privacy:pageTitle.policy"),
    description: t("legal:policy.description"),
    type: "website",
  };
  const hrefs = privacyHrefs(lang);
  const page = {
    hrefs,
    sections: privacyPolicySections({ ...hrefs, terms: localizedPath(lang, "/terms") }),
    updated: new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(legalTextsUpdated),
    ),
  };
  const resources = pickResources(lang, ["privacy", "legal"]);
  return { page, meta, strings: resources.privacy, legalStrings: resources.legal };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function PrivacyPolicy() {
  const { page, strings, legalStrings } = useLoaderData<typeof loader>();
  usePageStrings("privacy", strings);
  usePageStrings("legal", legalStrings);
  return <PrivacyPolicyView page={page} />;
}
