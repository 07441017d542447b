import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { requestMeta } from "#app/shell/meta.server.ts";
import type { PageMeta } from "#app/shell/meta.ts";
import type { Namespace } from "#locales/index.ts";

/** An information page's head and strings: the keys of its title and description, the namespace it is written in. */
export type InformationPageHead<TNamespace extends Namespace> = {
  namespace: TNamespace;
  title: string;
  description: string;
};

/**
 * The loader data of an information page (apps, developers, terms, the privacy pages, the forms,
 * the recognition pages): the language checked, the head from the page's own two strings, the
 * content `contentOf` reads, and the page's namespace of strings for the browser (`usePageStrings`).
 */
export async function informationPage<TNamespace extends Namespace, TPage>(
  { params, context, request }: Pick<LoaderFunctionArgs, "params" | "context" | "request">,
  head: InformationPageHead<TNamespace>,
  contentOf: (edge: AppLoadContext["edge"]) => TPage | Promise<TPage>,
) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const { t } = serverStrings(lang);
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t(head.title),
    description: t(head.description),
    type: "website",
  };
  const page = await contentOf(context.edge);
  return { page, meta, strings: pickResources(lang, [head.namespace])[head.namespace] };
}

/**
 * The loader data of a screen that has a title and nothing else from its loader's strings (the
 * sign-in and connect popups' landings, notices): the language checked, the title, its namespace's
 * strings for the browser.
 */
export function titledScreen<TNamespace extends Namespace>(
  { params, context }: Pick<LoaderFunctionArgs, "params" | "context">,
  namespace: TNamespace,
  titleKey: string,
) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  return { title: serverStrings(lang).t(titleKey), strings: pickResources(lang, [namespace])[namespace] };
}
