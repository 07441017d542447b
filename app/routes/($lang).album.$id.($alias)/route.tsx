import {
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { AmpView } from "~/amp-view";
import { CatalogueItemError } from "~/components/catalogue-item";
import { PrimitivesProvider } from "~/components/primitives";
import { PlaybackProvider, playbackPrimitives } from "~/components/track/playback";
import { albumPageMeta, loadAlbumPage } from "~/data/catalogue-items.server";
import { loadPage, requireKnownLanguage } from "~/http.server";
import { pickResources, serverStrings } from "~/i18n.server";
import { pageMeta } from "~/meta";
import { usePageStrings } from "~/strings";
import artistStyles from "~/styles/artist.css";
import styles from "~/styles/catalogue-item.css";
import trackStyles from "~/styles/track.css";
import { SiteError } from "../../../rules/errors";
import { AlbumView } from "./view";

// Spec 001 §3 "Catalogue item": `/album/{id}/{alias}`; `/album/{id}` and a wrong alias move there.

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: trackStyles },
  { rel: "stylesheet", href: artistStyles },
  { rel: "stylesheet", href: styles },
];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { t } = serverStrings(context.edge.lang);
  const page = await loadPage(() =>
    loadAlbumPage(context, params.id, t).catch((error: unknown) => {
      // The not-found page with the album's own apology.
      if (error instanceof SiteError && error.type === "notfound")
        throw data({ type: "albumunavailable" }, { status: 404 });
      throw error;
    }),
  );
  if (params.id !== page.id || params.alias !== page.alias)
    throw redirect(`${page.path}${new URL(request.url).search}`, 301);
  const meta = albumPageMeta(page, context, request, t);
  const strings = pickResources(context.edge.lang, ["catalogue", "track"]);
  return { page, meta, strings: strings.catalogue, trackStrings: strings.track };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => (
  <AlbumView page={data.page} canonical={data.meta.canonical} />
);

export default function AlbumRoute() {
  const { page, meta, strings, trackStrings } = useLoaderData<typeof loader>();
  usePageStrings("catalogue", strings);
  usePageStrings("track", trackStrings);
  return (
    <PlaybackProvider key={page.id} entries={page.playlist}>
      <PrimitivesProvider primitives={playbackPrimitives}>
        <AlbumView page={page} canonical={meta.canonical} />
      </PrimitivesProvider>
    </PlaybackProvider>
  );
}

export function ErrorBoundary() {
  return <CatalogueItemError kind="album" />;
}
