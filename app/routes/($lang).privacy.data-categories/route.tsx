import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { informationPage } from "#app/information/information-page.server.ts";
import {
  cookieMaxAgeSeconds,
  dataCategories,
  dataExportLifetimeMs,
  dayMs,
  emailLinkLifetimeMs,
  eventRetentionDays,
  expiredExportRecordMs,
  formatDuration,
  formatPrivacyDate,
  hiddenTagLifetimeMs,
  privacyAnswerDays,
  privacyHrefs,
  sessionLifetimeSeconds,
  signInHref,
  webIdMaxAgeSeconds,
} from "#app/privacy/privacy.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import privacyStyles from "#app/styles/privacy.css";
import { accessTokenLifetimeSeconds } from "#rules/streaming.ts";
import { DataCategoriesView } from "./view";

// Spec 000 §1 "data categories": what we hold, why and how long, every number the one the code
// runs on; and, for the signed-in person (spec 001 §5 "data categories requests need an
// account"), how much of each is held on their account now.

export const links = () => [{ rel: "stylesheet", href: privacyStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "privacy",
    title: "privacy:pageTitle.dataCategories",
    description: "privacy:categories.intro",
  } as const;
  return informationPage({ params, context, request }, head, async ({ lang, locale }) => {
    const duration = (ms: number) => formatDuration(locale, ms);
    const count = (n: number) => new Intl.NumberFormat(locale).format(n);
    const held = context.account ? await dataCategories(context, request) : undefined;
    return {
      hrefs: privacyHrefs(lang),
      signInHref: signInHref(lang, new URL(request.url).pathname),
      answerTime: duration(privacyAnswerDays * dayMs),
      durations: {
        sessions: { duration: duration(sessionLifetimeSeconds * 1000) },
        signInLinks: { duration: duration(emailLinkLifetimeMs) },
        tags: { duration: duration(hiddenTagLifetimeMs) },
        streamingConnections: { duration: duration(accessTokenLifetimeSeconds * 1000) },
        dataExports: { duration: duration(dataExportLifetimeMs), record: duration(expiredExportRecordMs) },
        identifications: { duration: duration(eventRetentionDays * dayMs) },
        statistics: { duration: duration(webIdMaxAgeSeconds * 1000) },
        settings: { duration: duration(cookieMaxAgeSeconds * 1000) },
      },
      yours: held
        ? {
            email: held.email,
            since: formatPrivacyDate(locale, held.createdAt),
            counts: {
              sessions: count(held.sessions),
              tags: count(held.tags),
              hiddenTags: count(held.hiddenTags),
              signInRequests: count(held.signInRequests),
              dataExports: count(held.dataExports),
              offerCodes: count(held.offerCodes),
              verificationRequests: count(held.verificationRequests),
              streamingConnections: count(held.streamingConnections),
              surveyAnswers: count(held.surveyAnswers),
            },
          }
        : null,
      signedIn: context.account !== null,
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function PrivacyDataCategories() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("privacy", strings);
  return <DataCategoriesView page={page} />;
}
