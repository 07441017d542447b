import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { developerKitExampleCommand, recognizeCommand } from "#app/information/developer-kit.ts";
import { developerKitExample } from "#app/information/developer-kit-example.generated.ts";
import { informationPage } from "#app/information/information-page.server.ts";
import type { AmpView } from "#app/shell/amp-view.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import pagesStyles from "#app/styles/pages.css";
import { localizedPath } from "#rules/path.ts";
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
