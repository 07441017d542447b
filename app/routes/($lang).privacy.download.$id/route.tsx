import {
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { requireAccount } from "#app/account/account.server.ts";
import { dataDownloadStatus, privacyHrefs, signInHref } from "#app/privacy/privacy.server.ts";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import privacyStyles from "#app/styles/privacy.css";
import { localizedPath } from "#rules/path.ts";
import { dataExportIdSchema, dataExportTokenSchema, formatPrivacyDate } from "#rules/privacy.ts";
import { type DownloadFile, DownloadFileView } from "./view";

// The data download's mailed link (spec 000 §8 "wrong account, expired download file"): for the
// signed-in account that asked, the file; otherwise why not, with its own status. Signed out, the
// person signs in and comes back here.

export const links = () => [{ rel: "stylesheet", href: privacyStyles }];

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** A link that is not the shape of ours is answered like one we do not know. */
const linkSchema = v.object({ id: dataExportIdSchema, token: dataExportTokenSchema });

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const account = requireAccount(context, request);
  const { lang, locale } = context.edge;
  const url = new URL(request.url);
  const page = {
    hrefs: privacyHrefs(lang),
    logoutHref: localizedPath(lang, "/logout"),
    back: url.pathname + url.search,
  };
  const strings = pickResources(lang, ["privacy"]).privacy;
  const title = serverStrings(lang).t("privacy:pageTitle.downloadFile");
  const answer = (file: DownloadFile, status: number) => data({ page, file, title, strings }, { status });

  const link = v.safeParse(linkSchema, { id: params.id, token: url.searchParams.get("token") ?? "" });
  if (!link.success) return answer({ outcome: "unknown" }, 404);
  const found = await dataDownloadStatus(context, request, link.output);
  switch (found.outcome) {
    case "signedout": {
      const headers = new Headers();
      for (const cookie of found.setCookies) headers.append("Set-Cookie", cookie);
      throw redirect(signInHref(lang, page.back), { headers });
    }
    case "ready": {
      const archive = new URL(localizedPath(lang, `/privacy/download/${link.output.id}/archive`), url);
      archive.searchParams.set("token", link.output.token);
      return answer(
        {
          outcome: "ready",
          email: account.email,
          href: archive.pathname + archive.search,
          size: new Intl.NumberFormat(locale, {
            style: "unit",
            unit: found.status.size < 1_000_000 ? "kilobyte" : "megabyte",
            maximumFractionDigits: 1,
          }).format(found.status.size / (found.status.size < 1_000_000 ? 1_000 : 1_000_000)),
          until: formatPrivacyDate(locale, found.status.expiresAt),
        },
        200,
      );
    }
    default:
      return answer({ outcome: found.outcome }, found.status);
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? unlistedPageMeta(data.title) : []);

export default function PrivacyDownloadFile() {
  const { page, file, strings } = useLoaderData<typeof loader>();
  usePageStrings("privacy", strings);
  return <DownloadFileView page={page} file={file} />;
}
