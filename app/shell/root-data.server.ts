import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { manifestPath } from "#app/site-files/home-screen.server.ts";
import { campaignNameSchema } from "#rules/campaign-name.ts";
import { cloudKitConfigOf, siteOriginOf, streamingConfigOf } from "#rules/env.ts";
import { languages } from "#rules/languages.ts";
import {
  addressQuery,
  alternateLinks,
  canonicalUrl,
  languagePickerHref,
  localizedPath,
} from "#rules/path.ts";
import { chromeStrings, serverStrings } from "./i18n.server";

/** A well-formed campaign name, else none: a malformed one is not an experiment. */
function experimentNameOf(segment: string | undefined): string | undefined {
  const parsed = v.safeParse(campaignNameSchema, segment);
  return parsed.success ? parsed.output : undefined;
}

/**
 * What every page's root needs: language, chrome strings, head links, the language picker, and the
 * feature flags enabled for the visitor (`enabledFeaturesFor`, app/shell/features.server.ts).
 */
export function rootData(context: AppLoadContext, request: Request, features: readonly string[]) {
  const { edge } = context;
  const origin = siteOriginOf(context.config);
  // A path no page has is not repeated into every alternate and language link (decision 028: an
  // 8 000-segment 404 answered 1.46 MB); its language links lead to the language's home page.
  const known = edge.path.pageType !== "unknown";
  const path = edge.path.canonicalPath;
  const pageType = edge.path.pageType === "unknown" ? "error" : edge.path.pageType;
  const query = addressQuery(edge.path, new URL(request.url).searchParams);
  return {
    lang: edge.lang,
    locale: edge.locale,
    dir: edge.dir,
    country: edge.country,
    pathPrefix: localizedPath(edge.lang, "/").replace(/\/$/, ""),
    hideHeaderFooter: edge.hideHeaderFooter,
    beaconsSuppressed: edge.beaconsSuppressed,
    inApp: edge.inApp,
    /** The offline page (decision 057): its copy in a service worker is every visitor's. */
    offlineShell: edge.path.segments[0] === "offline",
    /** Spec 000 §3 beacon `screenname`: the page type. */
    pageType,
    /** Spec 000 §2 "/campaign/{name}: the name is read as an experiment name for statistics". */
    expName: pageType === "campaign" ? experimentNameOf(edge.path.segments[1]) : undefined,
    /** The signed-in account (worker → edge/session.ts), null for a visitor. */
    account: context.account,
    /** The device maker's cloud sign-in, when configured (its values are public). */
    cloudKit: cloudKitConfigOf(context.config),
    /** The streaming-service connection's client id and authorization page (public values). */
    streaming: streamingConfigOf(context.config),
    inid: edge.inid,
    /** The names of the feature flags enabled for this visitor (rules/feature-flags.ts `featureNames`). */
    features,
    strings: chromeStrings(edge.lang),
    defaultTitle: serverStrings(edge.lang).t(`pageTitle.${pageType}`),
    canonical: canonicalUrl(origin, edge.lang, path, query),
    alternates: known ? alternateLinks(origin, path, query) : [],
    /** The web app manifest of the page's language. */
    manifest: manifestPath(edge.lang),
    languageLinks: languages.map((entry) => ({
      key: entry.key,
      locale: entry.locale,
      nativeName: entry.nativeName,
      href: languagePickerHref(entry.key, known ? path : "/"),
    })),
  };
}

export type RootData = ReturnType<typeof rootData>;
