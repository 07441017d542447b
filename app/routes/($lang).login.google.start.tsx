import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";
import { startWebProviderSignIn } from "#app/account/account.server.ts";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { safeRedirectPath } from "#rules/account.ts";
import { localizedPath } from "#rules/path.ts";

// Leaves for the web provider (Google): a fresh state, nonce and PKCE verifier for this browser,
// then the provider's authorization address. Not available, or the provider silent: back to the
// consent screen, which says so.

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const url = new URL(request.url);
  const returnPath = safeRedirectPath(url.searchParams.get("redirect"));
  if (context.account) throw redirect(returnPath ?? localizedPath(context.edge.lang, "/"));
  const started = await startWebProviderSignIn(context, request, {
    redirect: returnPath,
    popup: url.searchParams.get("popup") === "1",
  });
  if (started.outcome === "redirect") {
    throw redirect(started.location, {
      headers: { "Set-Cookie": started.setCookie, "Cache-Control": "no-store" },
    });
  }
  const back = new URLSearchParams({ message: started.outcome });
  if (returnPath) back.set("redirect", returnPath);
  throw redirect(`${localizedPath(context.edge.lang, "/login/google")}?${back}`);
}
