import {
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { surveyAnswerOf } from "~/data/forms.server";
import { requestMeta } from "~/data/meta.server";
import { requireKnownLanguage } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { type PageMeta, pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import pagesStyles from "~/styles/pages.css";
import { surveyReceiptOf } from "../../../rules/forms";
import { localizedPath } from "../../../rules/path";
import { SurveyThanksView } from "./view";

// The survey's thanks page: the visitor's own answer, as the origin stored it, read back with the
// receipt this browser keeps (never by a browser id).

// What this visitor sent is theirs alone: no shared cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang, locale } = context.edge;
  const answer = await surveyAnswerOf(context, request, surveyReceiptOf(request.headers.get("cookie")));
  // Nothing answered yet: the survey itself.
  if (!answer) throw redirect(localizedPath(lang, "/survey"), { status: 303 });
  const { t } = serverStrings(lang);
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("forms:survey.thanksTitle"),
    description: t("forms:survey.intro"),
    type: "website",
  };
  const page = {
    answer,
    answeredOn: new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
      answer.createdAt,
    ),
    homeHref: localizedPath(lang, "/"),
  };
  return { page, meta, strings: pickResources(lang, ["forms"]).forms };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [...pageMeta(data.meta), { name: "robots", content: "noindex" }] : [];

export default function SurveyThanks() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("forms", strings);
  return <SurveyThanksView page={page} />;
}
