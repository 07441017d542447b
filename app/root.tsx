import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { Upsell } from "#app/offers/upsell.tsx";
import { ErrorPage, errorSignInHref, errorTypeOf } from "#app/shell/error-page.tsx";
import { enabledFeaturesFor } from "#app/shell/features.server.ts";
import { useNonce } from "#app/shell/nonce.ts";
import { rootData } from "#app/shell/root-data.server.ts";
import { type RootData, useRootData } from "#app/shell/root-data.ts";
import { RuntimeProvider } from "#app/shell/runtime.tsx";
import { SiteFooter, SiteHeader } from "#app/shell/site-chrome.tsx";
import { StringsProvider, useStringsFromLoader, useTranslation } from "#app/shell/strings.ts";
import { DocumentStylesheets } from "#app/shell/stylesheets.tsx";
import { themeColourMetas } from "#app/shell/theme-colours.ts";
import searchStyles from "#app/styles/search.css";
import styles from "#app/styles/site.css";

/**
 * Every page's stylesheets, inlined into the document (app/shell/stylesheets.tsx) rather than linked; the
 * search box is in every page's header. The AMP renderer inlines the same files.
 */
export const siteStylesheets: readonly string[] = [styles, searchStyles];

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
];

export async function loader({ context, request }: LoaderFunctionArgs) {
  return rootData(context, request, await enabledFeaturesFor(context, request));
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.defaultTitle }] : []);

export function Layout({ children }: { children: ReactNode }) {
  const data = useRootData();
  const strings = useStringsFromLoader(data?.lang ?? "en", data?.strings);
  const nonce = useNonce();
  return (
    <html lang={data?.locale ?? "en-US"} dir={data?.dir ?? "ltr"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {themeColourMetas.map((meta) => (
          <meta key={meta.media} name="theme-color" media={meta.media} content={meta.content} />
        ))}
        <link rel="manifest" href={data?.manifest ?? "/manifest.webmanifest"} />
        <Meta />
        {data ? <link rel="canonical" href={data.canonical} /> : null}
        {data?.alternates.map((alternate) => (
          <link
            key={alternate.hreflang}
            rel="alternate"
            hrefLang={alternate.hreflang}
            href={alternate.href}
          />
        ))}
        <DocumentStylesheets />
      </head>
      <body>
        <StringsProvider strings={strings}>
          <Chrome data={data}>{children}</Chrome>
        </StringsProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function Chrome({ data, children }: { data: RootData | undefined; children: ReactNode }) {
  const { t } = useTranslation("common");
  const hideHeaderFooter = data?.hideHeaderFooter ?? false;
  const page = (
    <>
      <a className="skip-link" href="#main">
        {t("skipToContent")}
      </a>
      {hideHeaderFooter || !data ? null : <SiteHeader data={data} />}
      <main id="main" className="site-main">
        <div className="container">
          <Upsell />
          {children}
        </div>
      </main>
      {hideHeaderFooter || !data ? null : <SiteFooter data={data} />}
    </>
  );
  return data ? <RuntimeProvider data={data}>{page}</RuntimeProvider> : page;
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const pathPrefix = useRootData()?.pathPrefix ?? "";
  const homeHref = `${pathPrefix}/`;
  const signInHref = errorSignInHref(`${pathPrefix}/login`, location.pathname + location.search);
  if (isRouteErrorResponse(error)) {
    return (
      <ErrorPage
        status={error.status}
        type={errorTypeOf(error.data)}
        homeHref={homeHref}
        signInHref={signInHref}
      />
    );
  }
  console.error(error);
  return <ErrorPage status={500} type="jserror" homeHref={homeHref} signInHref={signInHref} />;
}
