import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireAccount } from "#app/account/account.server.ts";
import { informationPage } from "#app/information/information-page.server.ts";
import {
  dataExportLifetimeMs,
  dayMs,
  formatDuration,
  formatPrivacyDate,
  privacyAnswerDays,
  privacyHrefs,
  requestDataDownload,
  signInHref,
} from "#app/privacy/privacy.server.ts";
import { readForm, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import privacyStyles from "#app/styles/privacy.css";
import { type DownloadOutcome, DownloadRequestView } from "./view";

// Spec 000 §1 "data download": what the file holds, and for the signed-in person the request
// (a confirmation box, then the link mailed to the account's address). Works without script. A
// POST another site made never reaches the action: the worker answers it (isCrossSiteRequest).

export const links = () => [{ rel: "stylesheet", href: privacyStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "privacy",
    title: "privacy:pageTitle.download",
    description: "privacy:download.intro",
  } as const;
  return informationPage({ params, context, request }, head, ({ lang, locale }) => {
    return {
      hrefs: privacyHrefs(lang),
      email: context.account?.email ?? null,
      signInHref: signInHref(lang, new URL(request.url).pathname),
      linkLifetime: formatDuration(locale, dataExportLifetimeMs),
      answerTime: formatDuration(locale, privacyAnswerDays * dayMs),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

const statusOf: Record<DownloadOutcome["outcome"], number> = {
  sent: 200,
  inprocess: 409,
  notconfirmed: 400,
  failed: 502,
};

export async function action({ params, context, request }: ActionFunctionArgs) {
  requireKnownLanguage(params);
  requireAccount(context, request);
  const { lang, locale } = context.edge;
  const form = await readForm(request);
  const reply = (outcome: DownloadOutcome) => data(outcome, { status: statusOf[outcome.outcome] });
  if (form.get("confirm") !== "yes") return reply({ outcome: "notconfirmed" });
  const asked = await requestDataDownload(context, request);
  switch (asked.outcome) {
    case "signedout": {
      const headers = new Headers();
      for (const cookie of asked.setCookies) headers.append("Set-Cookie", cookie);
      throw redirect(signInHref(lang, new URL(request.url).pathname), { status: 303, headers });
    }
    case "sent":
      return reply({
        outcome: "sent",
        email: asked.email,
        until: formatPrivacyDate(locale, asked.expiresAt),
      });
    case "inprocess":
      return reply({
        outcome: "inprocess",
        created: formatPrivacyDate(locale, asked.createdAt),
        until: formatPrivacyDate(locale, asked.expiresAt),
      });
    case "failed":
      return reply({ outcome: "failed" });
  }
}

export default function PrivacyDownload() {
  const { page, strings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  usePageStrings("privacy", strings);
  return <DownloadRequestView page={page} result={result} sending={navigation.state === "submitting"} />;
}
