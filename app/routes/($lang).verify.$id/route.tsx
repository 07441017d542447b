import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { verificationRequestOf } from "~/data/forms.server";
import { requestMeta } from "~/data/meta.server";
import { requireKnownLanguage, throwSiteError } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { type PageMeta, pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import pagesStyles from "~/styles/pages.css";
import { SiteError } from "../../../rules/errors";
import { verificationIdSchema } from "../../../rules/forms";
import { localizedPath } from "../../../rules/path";
import { VerificationReceivedView } from "./view";

// The confirmation of a verification request: what was stored, read back from the origin by the
// request's random id (only the browser that sent it was sent there). Never cached, never indexed.

// What this visitor sent is theirs alone: no shared cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang, locale } = context.edge;
  const id = v.safeParse(verificationIdSchema, params.id);
  const stored = id.success ? await verificationRequestOf(context, request, id.output) : undefined;
  if (!stored) throwSiteError(new SiteError("notfound", "no such verification request"));
  const { t } = serverStrings(lang);
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("forms:verify.receivedTitle"),
    description: t("forms:verify.intro"),
    type: "website",
  };
  const page = {
    request: stored,
    receivedOn: new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
      stored.createdAt,
    ),
    homeHref: localizedPath(lang, "/"),
  };
  return { page, meta, strings: pickResources(lang, ["forms"]).forms };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [...pageMeta(data.meta), { name: "robots", content: "noindex" }] : [];

export default function VerificationReceived() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("forms", strings);
  return <VerificationReceivedView page={page} />;
}
