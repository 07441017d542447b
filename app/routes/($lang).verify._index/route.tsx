import {
  type ActionFunctionArgs,
  data,
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
import { sendVerificationRequest } from "#app/ui/forms.server.ts";
import { fieldErrors, typedFields, verificationRequestSchema } from "#rules/forms.ts";
import { localizedPath } from "#rules/path.ts";
import { type VerifyResult, VerifyView } from "./view";

// Spec 000 §2 page type `verify` (artist accounts): a request to verify an artist's account, as a
// form that works without script, checked here and again by the origin, stored in D1, with a rate
// limit per client and a confirmation page. Cross-site POSTs never reach the action (the worker).

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

const fields = ["artistName", "email", "role", "link", "message"] as const;

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "forms",
    title: "common:pageTitle.verify",
    description: "forms:verify.intro",
  } as const;
  return informationPage({ params, context, request }, head, ({ lang }) => {
    return {
      termsHref: localizedPath(lang, "/terms"),
      policyHref: localizedPath(lang, "/privacy/policy"),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

const statusOf = { invalid: 400, limited: 429, failed: 502 } as const;

export async function action({ params, context, request }: ActionFunctionArgs) {
  requireKnownLanguage(params);
  const typed = typedFields(await readForm(request), fields);
  const reply = (result: VerifyResult) => data(result, { status: statusOf[result.outcome] });
  const parsed = v.safeParse(verificationRequestSchema, typed);
  if (!parsed.success) return reply({ outcome: "invalid", errors: fieldErrors(parsed.issues), typed });
  const sent = await sendVerificationRequest(context, request, parsed.output);
  if (sent.outcome === "stored") {
    throw redirect(localizedPath(context.edge.lang, `/verify/${sent.id}`), { status: 303 });
  }
  return reply({ outcome: sent.outcome, errors: {}, typed });
}

export default function Verify() {
  const { page, strings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  usePageStrings("forms", strings);
  return <VerifyView page={page} result={result} sending={navigation.state === "submitting"} />;
}
