import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { AmpView } from "~/amp-view";
import { CatalogueItemError } from "~/components/catalogue-item";
import { CatalogueItemPlayback, catalogueItemLinks } from "~/components/catalogue-item-page";
import { albumPageMeta, catalogueItemRouteData, loadAlbumPage } from "~/data/catalogue-items.server";
import { pageMeta } from "~/meta";
import { AlbumView } from "./view";

// Spec 001 §3 "Catalogue item": `/album/{id}/{alias}`; `/album/{id}` and a wrong alias move there.

export const links = catalogueItemLinks;

export function loader(args: LoaderFunctionArgs) {
  return catalogueItemRouteData(args, "album", loadAlbumPage, albumPageMeta);
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
