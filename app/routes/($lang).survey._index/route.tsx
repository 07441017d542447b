import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { informationPage } from "#app/information/information-page.server.ts";
import { readForm, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import pagesStyles from "#app/styles/pages.css";
import { sendSurveyAnswer, surveyAnswerOf } from "#app/ui/forms.server.ts";
import {
  fieldErrors,
  surveyAnswerSchema,
  surveyReceiptCookie,
  surveyReceiptOf,
  typedFields,
} from "#rules/forms.ts";
import { localizedPath } from "#rules/path.ts";
import { type SurveyResult, SurveyView } from "./view";

// Spec 000 §1 "a satisfaction survey": a form that works without script, checked here and again by
// the origin, one answer per browser (the receipt it keeps in an HttpOnly cookie) and per account,
// a rate limit per client, and a thanks page. A POST another site made never reaches the action (the worker's isCrossSiteRequest).

// What this visitor sent is theirs alone: no shared cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

const fields = ["satisfaction", "found", "comment"] as const;

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "forms",
    title: "common:pageTitle.survey",
    description: "forms:survey.intro",
  } as const;
  return informationPage({ params, context, request }, head, async ({ lang }) => {
    const receipt = surveyReceiptOf(request.headers.get("cookie"));
    const answered = (await surveyAnswerOf(context, request, receipt)) !== undefined;
    const page = { answered, thanksHref: localizedPath(lang, "/survey/thanks") };
    return page;
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

const statusOf = { invalid: 400, answered: 409, limited: 429, failed: 502 } as const;

export async function action({ params, context, request }: ActionFunctionArgs) {
  requireKnownLanguage(params);
  const typed = typedFields(await readForm(request), fields);
  const reply = (result: SurveyResult) => data(result, { status: statusOf[result.outcome] });
  const parsed = v.safeParse(surveyAnswerSchema, typed);
  if (!parsed.success) return reply({ outcome: "invalid", errors: fieldErrors(parsed.issues), typed });
  // A request without a visitor id (a bot, to which no cookie is written) is not stored.
  if (!context.edge.webId) return reply({ outcome: "failed", errors: {}, typed });
  // One answer per browser: the one whose receipt it keeps (one per account: the origin).
  const receipt = surveyReceiptOf(request.headers.get("cookie"));
  if (await surveyAnswerOf(context, request, receipt))
    return reply({ outcome: "answered", errors: {}, typed });
  const sent = await sendSurveyAnswer(context, request, parsed.output);
  if (sent.outcome === "stored") {
    throw redirect(localizedPath(context.edge.lang, "/survey/thanks"), {
      status: 303,
      headers: { "Set-Cookie": surveyReceiptCookie(sent.receipt, context.edge.secure) },
    });
  }
  return reply({ outcome: sent.outcome, errors: {}, typed });
}

export default function Survey() {
  const { page, strings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  usePageStrings("forms", strings);
  return <SurveyView page={page} result={result} sending={navigation.state === "submitting"} />;
}
