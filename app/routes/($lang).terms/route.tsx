import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { informationPage } from "#app/information/information-page.server.ts";
import { frenchTermsId, frenchTermsSections, termsSections } from "#app/legal/terms.ts";
import type { AmpView } from "#app/shell/amp-view.ts";
import { dateTimeFormat } from "#app/shell/intl.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import pagesStyles from "#app/styles/pages.css";
import { legalTextsUpdated } from "#rules/legal.ts";
import { localizedPath } from "#rules/path.ts";
import { TermsView } from "./view";

// Spec 000 §2 page type `terms`, spec 001 §2 `/terms`: the terms of use, their sections and the
// French terms' anchor, with an AMP form. The body is English (decision 024).

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "legal",
    title: "common:pageTitle.terms",
    description: "legal:terms.description",
  } as const;
  return informationPage({ params, context, request }, head, ({ lang, locale }) => {
    const hrefs = { privacy: localizedPath(lang, "/privacy/policy") };
    return {
      sections: termsSections(hrefs),
      french: { id: frenchTermsId, sections: frenchTermsSections(hrefs) },
      updated: dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
        new Date(legalTextsUpdated),
      ),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => <TermsView page={data.page} />;

export default function Terms() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("legal", strings);
  return <TermsView page={page} />;
}
