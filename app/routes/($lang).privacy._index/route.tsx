import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { informationPage } from "#app/information/information-page.server.ts";
import { dayMs, formatDuration, privacyAnswerDays, privacyHrefs } from "#app/privacy/privacy.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import privacyStyles from "#app/styles/privacy.css";
import { PrivacyLandingView } from "./view";

// Spec 000 §2 page type `privacy`: what we keep, in short, and the four privacy pages.

export const links = () => [{ rel: "stylesheet", href: privacyStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "privacy",
    title: "privacy:pageTitle.landing",
    description: "privacy:description",
  } as const;
  return informationPage({ params, context, request }, head, ({ lang, locale }) => {
    const page = { hrefs: privacyHrefs(lang), answerTime: formatDuration(locale, privacyAnswerDays * dayMs) };
    return page;
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function PrivacyLanding() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("privacy", strings);
  return <PrivacyLandingView page={page} />;
}
