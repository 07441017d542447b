import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { AmpView } from "~/amp-view";
import { developerKitExampleCommand, recognizeCommand } from "~/data/developer-kit";
import { developerKitExample } from "~/data/developer-kit-example.generated";
import { informationPage } from "~/data/information-page.server";
import { pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import pagesStyles from "~/styles/pages.css";
import { localizedPath } from "../../../rules/path";
import { DevelopersView } from "./view";

// Spec 001 §1 "a developer page about a recognition kit", §2 "developer kit page": the project's
// own signature module and the match service, with an example that runs. AMP form too.

export const links = () => [{ rel: "stylesheet", href: pagesStyles }];

export function loader({ params, context, request }: LoaderFunctionArgs) {
  const head = {
    namespace: "developers",
    title: "common:pageTitle.developers",
    description: "developers:intro",
  } as const;
  return informationPage({ params, context, request }, head, ({ lang }) => {
    return {
      example: developerKitExample,
      exampleCommand: developerKitExampleCommand,
      recognizeCommand,
      identifyHref: localizedPath(lang, "/identify"),
      termsHref: localizedPath(lang, "/terms"),
    };
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => <DevelopersView page={data.page} />;

export default function Developers() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("developers", strings);
  return <DevelopersView page={page} />;
}
