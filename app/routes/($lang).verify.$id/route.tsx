import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { informationPage } from "#app/information/information-page.server.ts";
import { throwSiteError } from "#app/shell/http.server.ts";
import { dateTimeFormat } from "#app/shell/intl.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import pagesStyles from "#app/styles/pages.css";
import { verificationRequestOf } from "#app/ui/forms.server.ts";
import { SiteError } from "#rules/errors.ts";
import { verificationIdSchema } from "#rules/forms.ts";
import { localizedPath } from "#rules/path.ts";
import { VerificationReceivedView } from "./view";

// The confirmation of a verification request: what was stored, read back from the origin by the
// request's random id (only the browser that sent it was sent there). Never cached, never indexed.

// What this visitor sent is theirs alone: no shared cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "forms",
    title: "forms:verify.receivedTitle",
    description: "forms:verify.intro",
  } as const;
  return informationPage({ params, context, request }, head, async ({ lang, locale }) => {
    const id = v.safeParse(verificationIdSchema, params.id);
    const stored = id.success ? await verificationRequestOf(context, request, id.output) : undefined;
    if (!stored) throwSiteError(new SiteError("notfound", "no such verification request"));
    return {
      request: stored,
      receivedOn: dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(stored.createdAt),
      homeHref: localizedPath(lang, "/"),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [...pageMeta(data.meta), { name: "robots", content: "noindex" }] : [];

export default function VerificationReceived() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("forms", strings);
  return <VerificationReceivedView page={page} />;
}
