import { data, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { isSiteErrorType, statusOfError } from "#rules/errors.ts";

// Spec 000 §2: the error area at /error/{type}, including /error/notfound. Each type answers
// with its own status; an unknown type is itself not found.
export function loader({ params }: LoaderFunctionArgs): never {
  requireKnownLanguage(params);
  const type = params.type ?? "";
  if (!isSiteErrorType(type)) throw data({ type: "notfound" }, { status: 404 });
  throw data({ type }, { status: statusOfError(type) });
}

export default function ErrorRoute() {
  return null;
}
