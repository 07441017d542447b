import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { AmpView } from "~/amp-view";
import { requestMeta } from "~/data/meta.server";
import { requireKnownLanguage } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { type PageMeta, pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import { appLinks } from "../../../rules/app-links";
import { localizedPath } from "../../../rules/path";
import { CompanyView } from "./view";

// Spec 000 §2 page type `company`: who we are, in the visitor's language, with an AMP form.

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const { t } = serverStrings(lang);
  const base = requestMeta(context, request);
  const meta: PageMeta = {
    ...base,
    title: t("common:pageTitle.company"),
    description: t("company:description"),
    type: "website",
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Organization",
      name: appLinks.appName,
      url: new URL(localizedPath(lang, "/"), base.canonical).href,
      description: t("company:description"),
    },
  };
  const page = { identifyHref: localizedPath(lang, "/identify"), chartsHref: localizedPath(lang, "/charts") };
  return { page, meta, strings: pickResources(lang, ["company"]).company };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => <CompanyView page={data.page} />;

export default function Company() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("company", strings);
  return <CompanyView page={page} />;
}
