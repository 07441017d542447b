import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { informationPage } from "#app/information/information-page.server.ts";
import type { AmpView } from "#app/shell/amp-view.ts";
import { loadPage, siteOriginOf } from "#app/shell/http.server.ts";
import { dateTimeFormat } from "#app/shell/intl.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import pagesStyles from "#app/styles/pages.css";
import { careersRolesSchema } from "#rules/careers.ts";
import { CareersView } from "./view";

// Spec 000 §2 page type `careers`: the open roles, from the embedded origin (migration 0008's
// careers_roles), in English with the page's chrome translated. AMP form too.

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "careers",
    title: "common:pageTitle.careers",
    description: "careers:description",
  } as const;
  return informationPage({ params, context, request }, head, async ({ locale }) => {
    const { roles } = await loadPage(() =>
      context.services.getJson("/services/careers/roles", careersRolesSchema),
    );
    const dates = dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
    // The site's own domain, as security.txt's contact is (app/site-files/crawler-files.ts).
    const domain = new URL(siteOriginOf(context.config)).hostname;
    return {
      roles: roles.map((role) => ({
        ...role,
        posted: dates.format(new Date(role.postedOn)),
        applyHref: `mailto:careers@${domain}?${new URLSearchParams({ subject: role.title }).toString().replaceAll("+", "%20")}`,
      })),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => <CareersView page={data.page} />;

export default function Careers() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("careers", strings);
  return <CareersView page={page} />;
}
