import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { informationPage } from "#app/information/information-page.server.ts";
import {
  dayMs,
  formatDuration,
  privacyAnswerDays,
  privacyHrefs,
  transferNoticeDeletionDays,
} from "#app/privacy/privacy.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import privacyStyles from "#app/styles/privacy.css";
import { TransferNoticeView } from "./view";

// Spec 000 §1 "transfer notice", with its own reading of deletion (spec 000 §9 "the transfer
// notice says deletion within 60 days") beside the other one (answered within 30 days).

export const links = () => [{ rel: "stylesheet", href: privacyStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "privacy",
    title: "privacy:pageTitle.transferNotice",
    description: "privacy:transfer.intro",
  } as const;
  return informationPage({ params, context, request }, head, ({ lang, locale }) => {
    return {
      hrefs: privacyHrefs(lang),
      deletionTime: formatDuration(locale, transferNoticeDeletionDays * dayMs),
      answerTime: formatDuration(locale, privacyAnswerDays * dayMs),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function PrivacyTransferNotice() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("privacy", strings);
  return <TransferNoticeView page={page} />;
}
