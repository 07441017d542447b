import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { AmpView } from "#app/shell/amp-view.ts";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { requestMeta } from "#app/shell/meta.server.ts";
import { type PageMeta, pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import { appLinks } from "#rules/app-links.ts";
import { localizedPath } from "#rules/path.ts";
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
