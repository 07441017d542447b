import {
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { informationPage } from "#app/information/information-page.server.ts";
import { dateTimeFormat } from "#app/shell/intl.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import pagesStyles from "#app/styles/pages.css";
import { surveyAnswerOf } from "#app/ui/forms.server.ts";
import { surveyReceiptOf } from "#rules/forms.ts";
import { localizedPath } from "#rules/path.ts";
import { SurveyThanksView } from "./view";

// The survey's thanks page: the visitor's own answer, as the origin stored it, read back with the
// receipt this browser keeps (never by a browser id).

// What this visitor sent is theirs alone: no shared cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "forms",
    title: "forms:survey.thanksTitle",
    description: "forms:survey.intro",
  } as const;
  return informationPage({ params, context, request }, head, async ({ lang, locale }) => {
    const answer = await surveyAnswerOf(context, request, surveyReceiptOf(request.headers.get("cookie")));
    // Nothing answered yet: the survey itself.
    if (!answer) throw redirect(localizedPath(lang, "/survey"), { status: 303 });
    return {
      answer,
      answeredOn: dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(answer.createdAt),
      homeHref: localizedPath(lang, "/"),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [...pageMeta(data.meta), { name: "robots", content: "noindex" }] : [];

export default function SurveyThanks() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("forms", strings);
  return <SurveyThanksView page={page} />;
}
