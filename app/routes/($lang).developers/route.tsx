import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { AmpView } from "~/amp-view";
import { developerKitExampleCommand, recognizeCommand } from "~/data/developer-kit";
import { developerKitExample } from "~/data/developer-kit-example.generated";
import { requestMeta } from "~/data/meta.server";
import { requireKnownLanguage } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { type PageMeta, pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import pagesStyles from "~/styles/pages.css";
import { localizedPath } from "../../../rules/path";
import { DevelopersView } from "./view";

// Spec 001 §1 "a developer page about a recognition kit", §2 "developer kit page": the project's
// own signature module and the match service, with an example that runs. AMP form too.

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const { t } = serverStrings(lang);
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("common:pageTitle.developers"),
    description: t("developers:intro"),
    type: "website",
  };
  const page = {
    example: developerKitExample,
    exampleCommand: developerKitExampleCommand,
    recognizeCommand,
    identifyHref: localizedPath(lang, "/identify"),
    termsHref: localizedPath(lang, "/terms"),
  };
  return { page, meta, strings: pickResources(lang, ["developers"]).developers };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => <DevelopersView page={data.page} />;

export default function Developers() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("developers", strings);
  return <DevelopersView page={page} />;
}
