import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { cookieHeaders, requireAccount } from "#app/account/account.server.ts";
import { changeTag, loadLibrary, tagChangeOf } from "#app/library/library.server.ts";
import { featureEnabledFor } from "#app/shell/features.server.ts";
import { loadPage, readForm, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { usePageStrings } from "#app/shell/strings.ts";
import libraryStyles from "#app/styles/library.css";
import { featureNames } from "#rules/feature-names.ts";
import { localizedPath } from "#rules/path.ts";
import { CloudLibrary } from "./cloud-library";
import {
  EmptyLibrary,
  LibraryFrame,
  LibraryList,
  SignedOutLibrary,
  type TagChangeNotice,
  TagChangeStatus,
} from "./view";

// Spec 000 §2 page type `myshazam`: the signed-in person's identified songs (decision 019). Rendered on
// the server and usable without script: paging is links, removal and its undo are forms.
//
// A visitor who is not signed in (to this site's account service) sees the page with a sign-in
// card rather than a redirect: the page says what it is, and a person signed in with iCloud, whose
// session lives only in the browser, gets the cloud library there.

export const links = () => [{ rel: "stylesheet", href: libraryStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang } = context.edge;
  const { t } = serverStrings(lang);
  const path = localizedPath(lang, "/myshazam");
  const common = {
    title: t("common:pageTitle.myshazam"),
    description: t("library:description"),
    strings: pickResources(lang, ["library"]).library,
    sunset: await featureEnabledFor(context, request, featureNames.myLibrarySunset),
    links: {
      identify: localizedPath(lang, "/identify"),
      exportCsv: `${path}/download.csv`,
      exportJson: `${path}/download.json`,
    },
  };
  if (!context.account) {
    const back = new URLSearchParams({ redirect: path });
    return { ...common, library: null, loginHref: `${localizedPath(lang, "/login")}?${back}` };
  }
  const library = await loadPage(() => loadLibrary(context, request));
  return { ...common, library, loginHref: null };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [
        { title: data.title },
        { name: "description", content: data.description },
        { name: "robots", content: "noindex" },
      ]
    : [];

/** Removal of a tag and its undo: this site's own forms only, for the signed-in person only. */
export async function action({ params, context, request }: ActionFunctionArgs) {
  requireKnownLanguage(params);
  requireAccount(context, request);
  const form = await readForm(request);
  const asked = tagChangeOf(form);
  if (!asked) return data<TagChangeNotice>({ outcome: "gone" }, { status: 400 });
  const changed = await loadPage(() => changeTag(context, request, asked.tagid, asked.change));
  if (!changed) return data<TagChangeNotice>({ outcome: "gone" }, { status: 404 });
  const { setCookies, ...tag } = changed;
  return data<TagChangeNotice>(
    { outcome: asked.change === "hide" ? "removed" : "restored", ...tag },
    { headers: cookieHeaders(setCookies) },
  );
}

export default function MyLibrary() {
  const { library, links, loginHref, strings, sunset } = useLoaderData<typeof loader>();
  const notice = useActionData<typeof action>();
  usePageStrings("library", strings);
  const runtime = useRuntime();
  const count = library?.count;
  // Spec 002 §3 user flag "shazamcount (saved from the tag count)".
  useEffect(() => {
    if (runtime && count !== undefined) runtime.storage.set("shazamcount", count);
  }, [runtime, count]);
  if (!library) {
    return (
      <LibraryFrame count={undefined} sunset={sunset}>
        <CloudLibrary
          identifyHref={links.identify}
          fallback={<SignedOutLibrary loginHref={loginHref ?? ""} />}
        />
      </LibraryFrame>
    );
  }
  return (
    <LibraryFrame count={library.count} sunset={sunset}>
      <TagChangeStatus notice={notice} />
      {library.items.length === 0 ? (
        <EmptyLibrary identifyHref={links.identify} />
      ) : (
        <LibraryList
          items={library.items}
          offset={library.offset}
          count={library.count}
          olderHref={library.olderHref}
          newestHref={library.newestHref}
          links={links}
        />
      )}
    </LibraryFrame>
  );
}
