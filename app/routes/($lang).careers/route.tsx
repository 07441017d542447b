import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { AmpView } from "~/amp-view";
import { requestMeta } from "~/data/meta.server";
import { loadPage, requireKnownLanguage, siteOriginOf } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { type PageMeta, pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import pagesStyles from "~/styles/pages.css";
import { careersRolesSchema } from "../../../rules/careers";
import { CareersView } from "./view";

// Spec 000 §2 page type `careers`: the open roles, from the embedded origin (migration 0008's
// careers_roles), in English with the page's chrome translated. AMP form too.

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang, locale } = context.edge;
  const { t } = serverStrings(lang);
  const { roles } = await loadPage(() =>
    context.services.getJson("/services/careers/roles", careersRolesSchema),
  );
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("common:pageTitle.careers"),
    description: t("careers:description"),
    type: "website",
  };
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  // The site's own domain, as security.txt's contact is (app/crawler-files.ts).
  const domain = new URL(siteOriginOf(context.config)).hostname;
  const page = {
    roles: roles.map((role) => ({
      ...role,
      posted: dates.format(new Date(role.postedOn)),
      applyHref: `mailto:careers@${domain}?${new URLSearchParams({ subject: role.title }).toString().replaceAll("+", "%20")}`,
    })),
  };
  return { page, meta, strings: pickResources(lang, ["careers"]).careers };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => <CareersView page={data.page} />;

export default function Careers() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("careers", strings);
  return <CareersView page={page} />;
}
