import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { CatalogueItemError } from "#app/catalogue/catalogue-item.tsx";
import { CatalogueItemPlayback, catalogueItemLinks } from "#app/catalogue/catalogue-item-page.tsx";
import {
  albumPageMeta,
  catalogueItemRouteData,
  loadAlbumPage,
} from "#app/catalogue/catalogue-items.server.ts";
import type { AmpView } from "#app/shell/amp-view.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { AlbumView } from "./view";

// Spec 001 §3 "Catalogue item": `/album/{id}/{alias}`; `/album/{id}` and a wrong alias move there.

export const links = catalogueItemLinks;

export function loader(args: LoaderFunctionArgs) {
  return catalogueItemRouteData(args, loadAlbumPage, albumPageMeta);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => (
  <AlbumView page={data.page} canonical={data.meta.canonical} />
);

export default function AlbumRoute() {
  const data = useLoaderData<typeof loader>();
  return (
    <CatalogueItemPlayback data={data}>
      <AlbumView page={data.page} canonical={data.meta.canonical} />
    </CatalogueItemPlayback>
  );
}

export function ErrorBoundary() {
  return <CatalogueItemError kind="album" />;
}
