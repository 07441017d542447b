import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requestMeta } from "~/data/meta.server";
import {
  dayMs,
  formatDuration,
  privacyAnswerDays,
  privacyHrefs,
  transferNoticeDeletionDays,
} from "~/data/privacy.server";
import { requireKnownLanguage } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { type PageMeta, pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import privacyStyles from "~/styles/privacy.css";
import { TransferNoticeView } from "./view";

// Spec 000 §1 "transfer notice", with its own reading of deletion (spec 000 §9 "the transfer
// notice says deletion within 60 days") beside the other one (answered within 30 days).

export const links = () => [{ rel: "stylesheet", href: privacyStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang, locale } = context.edge;
  const { t } = serverStrings(lang);
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("privacy:pageTitle.transferNotice"),
    description: t("privacy:transfer.intro"),
    type: "website",
  };
  const page = {
    hrefs: privacyHrefs(lang),
    deletionTime: formatDuration(locale, transferNoticeDeletionDays * dayMs),
    answerTime: formatDuration(locale, privacyAnswerDays * dayMs),
  };
  return { page, meta, strings: pickResources(lang, ["privacy"]).privacy };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export default function PrivacyTransferNotice() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("privacy", strings);
  return <TransferNoticeView page={page} />;
}
