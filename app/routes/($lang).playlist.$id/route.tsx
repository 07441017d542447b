import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { CatalogueItemError } from "#app/catalogue/catalogue-item.tsx";
import { CatalogueItemPlayback, catalogueItemLinks } from "#app/catalogue/catalogue-item-page.tsx";
import {
  catalogueItemRouteData,
  loadPlaylistPage,
  playlistPageMeta,
} from "#app/catalogue/catalogue-items.server.ts";
import type { AmpView } from "#app/shell/amp-view.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { PlaylistView } from "./view";

// Spec 001 §3 "Catalogue item": `/playlist/{id}` (the catalogue gives playlists no alias).

export const links = catalogueItemLinks;

export function loader(args: LoaderFunctionArgs) {
  return catalogueItemRouteData(args, loadPlaylistPage, playlistPageMeta);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => (
  <PlaylistView page={data.page} canonical={data.meta.canonical} />
);

export default function PlaylistRoute() {
  const data = useLoaderData<typeof loader>();
  return (
    <CatalogueItemPlayback data={data}>
      <PlaylistView page={data.page} canonical={data.meta.canonical} />
    </CatalogueItemPlayback>
  );
}

export function ErrorBoundary() {
  return <CatalogueItemError kind="playlist" />;
}
