import { type ActionFunctionArgs, redirect } from "@remix-run/cloudflare";
import { cookieHeaders, signOut } from "#app/account/account.server.ts";
import { readForm, requireKnownLanguage, throwSiteError } from "#app/shell/http.server.ts";
import { safeRedirectPath } from "#rules/account.ts";
import { SiteError } from "#rules/errors.ts";
import { localizedPath } from "#rules/path.ts";

// Sign-out: a POST only (a link or an image cannot sign anyone out), from this site only.

export async function loader({ params, context }: ActionFunctionArgs) {
  requireKnownLanguage(params);
  throw redirect(localizedPath(context.edge.lang, "/"));
}

export async function action({ params, context, request }: ActionFunctionArgs) {
  requireKnownLanguage(params);
  const form = await readForm(request);
  const next = safeRedirectPath(String(form.get("redirect") ?? "")) ?? localizedPath(context.edge.lang, "/");
  const { ok, setCookies } = await signOut(context, request);
  if (!ok) throwSiteError(new SiteError("serviceerror", "The account service did not sign out"));
  throw redirect(next, { status: 303, headers: cookieHeaders(setCookies) });
}
