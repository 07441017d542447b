import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { readForm, requireKnownLanguage, throwSiteError } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import {
  type AuthorizationAnswer,
  authorizationQueryOf,
  checkAuthorizationRequest,
  consentCookie,
  decideAuthorization,
} from "#app/streaming/streaming.server.ts";
import connectStyles from "#app/styles/connect.css";
import { SiteError } from "#rules/errors.ts";

// Spec 002 §2 "/applemusic/signin/mockactivate: Test-mode stand-in for the authorisation page":
// the consent page of the embedded origin's authorization server (origin/routes/streaming.ts),
// where the connect popup lands when no real authorization page is configured
// (STREAMING_AUTHORIZE_URL). It says plainly that it is a stand-in. Allow and Deny are this
// site's own forms (a cross-site post is refused before Remix, worker/steps/cross-site-page.ts), and the page
// cannot be framed, so no other site can click Allow for a person. Showing a request gives this
// browser the server's consent ticket for it (an HttpOnly cookie on this page's path); Allow
// presents it, and without it no code is issued (decision 030, finding 11).

export const links = () => [{ rel: "stylesheet", href: connectStyles }];

export const headers: HeadersFunction = () => ({
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
});

/** What the page does with the authorization server's answer: ask, go back to the client, or say why not. */
function settle(answer: AuthorizationAnswer, headers?: Headers) {
  if (answer.outcome === "redirect") throw redirect(answer.location, { status: 303, headers });
  if (answer.outcome === "failed")
    throwSiteError(new SiteError("serviceerror", "Authorization server unavailable"));
  return answer;
}

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const { t } = serverStrings(lang);
  const url = new URL(request.url);
  const query = authorizationQueryOf((name) => url.searchParams.get(name));
  const answer = query
    ? settle(await checkAuthorizationRequest(context, query))
    : ({ outcome: "invalid", error: "invalid_request" } as const);
  const page = {
    title: t("connect:consent.title"),
    strings: pickResources(lang, ["connect"]).connect,
    // The consent ticket stays in the cookie: the page's own data never carries it.
    answer: answer.outcome === "ask" ? { ...answer, consent: undefined } : answer,
  };
  if (answer.outcome !== "ask") return data(page, { status: 400 });
  return data(page, { headers: { "Set-Cookie": consentCookie(context, answer.consent, url.pathname) } });
}

export async function action({ params, context, request }: ActionFunctionArgs) {
  requireKnownLanguage(params);
  const form = await readForm(request);
  const read = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : null;
  };
  const decision = read("decision");
  const query = authorizationQueryOf(read);
  if (!query || (decision !== "allow" && decision !== "deny")) {
    throwSiteError(new SiteError("invalidparam", "Malformed authorization decision"));
  }
  // The ticket is spent by this decision, whatever it was.
  const spent = new Headers({ "Set-Cookie": consentCookie(context, null, new URL(request.url).pathname) });
  settle(await decideAuthorization(context, request, query, decision), spent);
  // Only a redirect answers a decision; an invalid request shows the page's own message.
  return redirect(request.url, { status: 303, headers: spent });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  // Not no-referrer: with it, Chromium sends the Allow form's Origin as "null", and the
  // worker refuses a post it cannot tell from another site's.
  return data ? unlistedPageMeta(data.title, "same-origin") : [];
};

export default function ConsentPage() {
  const { title, strings, answer } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("connect", strings);
  return (
    <section className="consent card" aria-labelledby="consent-title">
      <p className="consent__badge">{t("consent.testMode")}</p>
      <h1 id="consent-title">{title}</h1>
      {answer.outcome === "ask" ? (
        <>
          <p>{t("consent.question", { client: answer.clientName })}</p>
          <p>{t("consent.scopeIntro", { client: answer.clientName })}</p>
          <ul className="consent__scopes">
            <li>{t("consent.scopeMusic")}</li>
          </ul>
          <p className="muted">{t("consent.testModeNote")}</p>
          <div className="consent__actions">
            <Form method="post" reloadDocument>
              {Object.entries(answer.query).map(([name, value]) =>
                value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
              )}
              <button type="submit" name="decision" value="deny" className="button button--quiet">
                {t("consent.deny")}
              </button>
              <button type="submit" name="decision" value="allow" className="button">
                {t("consent.allow")}
              </button>
            </Form>
          </div>
        </>
      ) : (
        <div role="alert">
          <p>
            <strong>{t("consent.invalidTitle")}</strong>
          </p>
          <p>{t("consent.invalidBody")}</p>
        </div>
      )}
    </section>
  );
}
