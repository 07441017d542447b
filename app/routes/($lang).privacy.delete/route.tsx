import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { cookieHeaders, requireAccount } from "#app/account/account.server.ts";
import { informationPage } from "#app/information/information-page.server.ts";
import {
  dayMs,
  deleteAccount,
  formatDuration,
  privacyAnswerDays,
  privacyHrefs,
  signInHref,
  transferNoticeDeletionDays,
  typedEmailOf,
} from "#app/privacy/privacy.server.ts";
import { readForm, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import privacyStyles from "#app/styles/privacy.css";
import { localizedPath } from "#rules/path.ts";
import { DeleteAccountView, type DeleteOutcome } from "./view";

// Spec 000 §1 "account deletion": what goes and what stays, both readings of when (spec 001 §9:
// answered within 30 days; the transfer notice's 60), and the deletion itself, at once (the
// stricter reading), once the person typed the account's address again. A POST another site made
// never reaches the action: the worker answers it (isCrossSiteRequest).

export const links = () => [{ rel: "stylesheet", href: privacyStyles }];

/** The address the page comes back to after a deletion: the browser is signed out by then. */
const deletedParam = "deleted";

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "privacy",
    title: "privacy:pageTitle.delete",
    description: "privacy:delete.intro",
  } as const;
  return informationPage({ params, context, request }, head, ({ lang, locale }) => {
    const url = new URL(request.url);
    return {
      hrefs: privacyHrefs(lang),
      email: context.account?.email ?? null,
      // Shown only once signed out: the session that asked is gone.
      deleted: !context.account && url.searchParams.has(deletedParam),
      signInHref: signInHref(lang, url.pathname),
      loginHref: localizedPath(lang, "/login"),
      answerTime: formatDuration(locale, privacyAnswerDays * dayMs),
      transferTime: formatDuration(locale, transferNoticeDeletionDays * dayMs),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export async function action({ params, context, request }: ActionFunctionArgs) {
  requireKnownLanguage(params);
  const account = requireAccount(context, request);
  const { lang } = context.edge;
  const form = await readForm(request);
  const typed = String(form.get("email") ?? "").slice(0, 320);
  const reply = (outcome: DeleteOutcome, status: number) => data(outcome, { status });
  const email = typedEmailOf(typed);
  if (email === undefined || email !== account.email) return reply({ outcome: "mismatch", typed }, 400);
  const deleted = await deleteAccount(context, request, email);
  switch (deleted.outcome) {
    case "deleted": {
      // A new request, so that the page after it is drawn signed out (header, root data, storage).
      const back = `${new URL(request.url).pathname}?${deletedParam}`;
      throw redirect(back, { status: 303, headers: cookieHeaders(deleted.setCookies) });
    }
    case "signedout":
      throw redirect(signInHref(lang, new URL(request.url).pathname), {
        status: 303,
        headers: cookieHeaders(deleted.setCookies),
      });
    case "mismatch":
      return reply({ outcome: "mismatch", typed }, 400);
    case "failed":
      return reply({ outcome: "failed", typed }, 502);
  }
}

export default function PrivacyDelete() {
  const { page, strings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  usePageStrings("privacy", strings);
  return <DeleteAccountView page={page} result={result} deleting={navigation.state === "submitting"} />;
}
