import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";
import * as v from "valibot";
import { requireAccount } from "#app/account/account.server.ts";
import { dataDownloadFile } from "#app/privacy/privacy.server.ts";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { localizedPath } from "#rules/path.ts";
import { dataExportIdSchema, dataExportPagePath, dataExportTokenSchema } from "#rules/privacy.ts";

// The data download's file, streamed through the site as the account service answers it (a ZIP,
// `attachment`, never stored). Anything but the file goes back to the link's page, which says why
// with its own status (a document route cannot answer with a file, so the two are one pair).

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  requireAccount(context, request);
  const { lang } = context.edge;
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const link = v.safeParse(v.object({ id: dataExportIdSchema, token: dataExportTokenSchema }), {
    id: params.id,
    token,
  });
  const id = encodeURIComponent(params.id ?? "");
  const page = `${localizedPath(lang, dataExportPagePath(id))}?${new URLSearchParams({ token })}`;
  if (!link.success) throw redirect(page, { status: 303 });
  const file = await dataDownloadFile(context, request, link.output);
  if (file.outcome !== "file")
    throw redirect(page, { status: 303, headers: { "Cache-Control": "no-store" } });
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  for (const name of ["content-type", "content-disposition", "content-length"]) {
    const value = file.response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(file.response.body, { status: 200, headers });
}
