import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requestMeta } from "~/data/meta.server";
import { dayMs, formatDuration, privacyAnswerDays, privacyHrefs } from "~/data/privacy.server";
import { requireKnownLanguage } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { type PageMeta, pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import privacyStyles from "~/styles/privacy.css";
import { PrivacyLandingView } from "./view";

// Spec 000 §2 page type `privacy`: what we keep, in short, and the four privacy pages.

export const links = () => [{ rel: "stylesheet", href: privacyStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang, locale } = context.edge;
  const { t } = serverStrings(lang);
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("privacy:pageTitle.landing"),
    description: t("privacy:description"),
    type: "website",
  };
  const page = { hrefs: privacyHrefs(lang), answerTime: formatDuration(locale, privacyAnswerDays * dayMs) };
  return { page, meta, strings: pickResources(lang, ["privacy"]).privacy };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function PrivacyLanding() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("privacy", strings);
  return <PrivacyLandingView page={page} />;
}
