import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import { offerRedemptionStep } from "#app/account/account.server.ts";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { campaignNameSchema } from "#rules/campaign-name.ts";
import { isJsonContentType } from "#rules/http-body.ts";

// The offer page's redemption steps (app/offers/browser/offer-redemption.ts), POSTed from the page itself:
// the worker answers a POST another site made before it gets here (isCrossSiteRequest). Each step
// goes to the account service with the store-front country the edge resolved for the visitor;
// the service decides, with the same rule as the page, and its JSON answer is passed on.

const stepSchema = v.variant("step", [
  v.object({ step: v.literal("challenge") }),
  // The browser's WebAuthn answer, passed on whole: the account service checks its shape and all.
  v.object({ step: v.literal("code"), credential: v.record(v.string(), v.unknown()) }),
]);

function jsonAnswer(body: unknown, status: number, cookies: readonly string[] = []): Response {
  const headers = new Headers({
    "Content-Type": "application/json; charset=UTF-8",
    "Cache-Control": "no-store",
  });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(JSON.stringify(body), { status, headers });
}

export async function action({ params, context, request }: ActionFunctionArgs) {
  // The body is read first: workerd reports a body left unread when the answer goes out. JSON only
  // when sent as JSON (decision 030): no form can send application/json.
  const sentAsJson = isJsonContentType(request.headers.get("content-type"));
  const input = sentAsJson ? await request.json().catch(() => undefined) : await request.text();
  requireKnownLanguage(params);
  if (!sentAsJson)
    return jsonAnswer({ error: "invalidparam", message: "The body must be sent as application/json" }, 415);
  const name = v.safeParse(campaignNameSchema, params.name);
  if (!name.success) return jsonAnswer({ error: "invalidparam", message: "Malformed offer name" }, 400);
  const body = v.safeParse(stepSchema, input);
  if (!body.success) return jsonAnswer({ error: "invalidparam", message: "Malformed redemption step" }, 400);
  const { step, ...rest } = body.output;
  const answer = await offerRedemptionStep(context, request, { name: name.output, step, input: rest });
  const json = await answer.json().catch(() => ({ error: "serviceerror", message: "No answer" }));
  return jsonAnswer(json, answer.status, answer.headers.getSetCookie());
}

/** Only the page's script POSTs here; a GET is not a page. */
export function loader() {
  return jsonAnswer({ error: "notfound", message: "Not a page" }, 404);
}
