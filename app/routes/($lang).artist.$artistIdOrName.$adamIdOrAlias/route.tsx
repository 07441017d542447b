import {
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import {
  artistPageMeta,
  isAdamIdRouteOn,
  isCanonicalArtistPath,
  loadArtistPage,
} from "#app/artist/artist.server.ts";
import { avatarSizes } from "#app/artist/artist-header.tsx";
import type { AmpView } from "#app/shell/amp-view.ts";
import { featureOptionsOf } from "#app/shell/features.server.ts";
import { loadPage, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import artistStyles from "#app/styles/artist.css";
import { artistPagePath, parseArtistRoute } from "#rules/addresses.ts";
import { SiteError } from "#rules/errors.ts";
import { ArtistView } from "./view";

// Spec 001 §2 `/artist/{artistIdOrName}/{adamIdOrAlias}`, also `/artist/-/{id}`.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: artistStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { edge } = context;
  const requested = {
    artistIdOrName: params.artistIdOrName ?? "",
    adamIdOrAlias: params.adamIdOrAlias ?? "",
  };
  const page = await loadPage(async () => {
    const adamIdRoute = await isAdamIdRouteOn(context, featureOptionsOf(context, request));
    const route = parseArtistRoute(requested.artistIdOrName, requested.adamIdOrAlias, adamIdRoute);
    if (!route)
      throw new SiteError(
        "notfound",
        `no artist at ${artistPagePath(requested.artistIdOrName, requested.adamIdOrAlias)}`,
      );
    return loadArtistPage(context, route, { adamIdRoute }, new Date()).catch((error: unknown) => {
      // Spec 001 §8 "Missing artist data gives not found and a redirect to the 404 page": an
      // address of the artist form whose artist the catalogue lacks moves to /error/notfound
      // (302: the artist may yet come). One that is no artist address is not found in place.
      if (error instanceof SiteError && error.type === "notfound")
        throw redirect(`${params.lang ? `/${params.lang}` : ""}/error/notfound`, 302);
      throw error;
    });
  });
  // Every form of the address moves to the artist's one canonical URL.
  if (!isCanonicalArtistPath(requested, page)) {
    throw redirect(
      `${params.lang ? `/${params.lang}` : ""}${page.artist.path}${new URL(request.url).search}`,
      301,
    );
  }
  const { t } = serverStrings(edge.lang);
  const meta = artistPageMeta(page, context, request, t);
  return { page, meta, strings: pickResources(edge.lang, ["artist"]).artist };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [];
  const avatar = data.page.artist.avatar;
  return [
    ...pageMeta(data.meta),
    // Spec 002 §2: the artist page preloads the artist artwork (from whichever call gave the artist).
    ...(avatar
      ? [
          {
            tagName: "link",
            rel: "preload",
            as: "image",
            href: avatar.src,
            imageSrcSet: avatar.srcSet,
            imageSizes: avatarSizes,
          },
        ]
      : []),
  ];
};

export const ampView: AmpView<typeof loader> = ({ data }) => (
  <ArtistView page={data.page} canonical={data.meta.canonical} />
);

export default function ArtistRoute() {
  const { page, meta, strings } = useLoaderData<typeof loader>();
  usePageStrings("artist", strings);
  return <ArtistView page={page} canonical={meta.canonical} />;
}
