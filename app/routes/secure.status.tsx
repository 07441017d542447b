import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { sessionStatus } from "#app/account/account.server.ts";
import { sessionEndedStatus } from "#rules/account.ts";
import { localizedPath } from "#rules/path.ts";

// Spec 002 §2 "/secure/status: login status endpoint", §7 "GET /secure/status (no cache): on 401
// with a JSON redirectUrl, navigate to it with {redirectPath} replaced by the current path and
// query". Never stored anywhere: every answer is the asking browser's own.

export async function loader({ context, request }: LoaderFunctionArgs) {
  const answer = await sessionStatus(context, request);
  const headers = new Headers({
    "Content-Type": "application/json; charset=UTF-8",
    "Cache-Control": "no-store",
  });
  for (const cookie of answer.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  if (answer.status === 200) return new Response(answer.body, { status: 200, headers });
  await answer.body?.cancel();
  if (answer.status === 401 || answer.status === sessionEndedStatus) {
    const redirectUrl = `${localizedPath(context.edge.lang, "/login")}?redirect={redirectPath}`;
    return new Response(JSON.stringify({ error: "unauthorized", redirectUrl }), { status: 401, headers });
  }
  return new Response(JSON.stringify({ error: "serviceerror", message: "The account service failed" }), {
    status: 502,
    headers,
  });
}
