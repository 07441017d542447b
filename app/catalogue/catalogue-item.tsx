import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { type CSSProperties, type ReactNode, useEffect, useRef } from "react";
import { ArtistTiles } from "#app/artist/artist-tiles.tsx";
import { ShareLinks } from "#app/charts/share-links.tsx";
import { ErrorPage, errorTypeOf } from "#app/shell/error-page.tsx";
import { useRootData } from "#app/shell/root-data.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import { type Image as ImageData, type PlaylistEntry, safeColour } from "#app/shell/view.ts";
import { LabelledSection } from "#app/ui/labelled-section.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";
import { foldedListItems } from "#app/ui/show-more.tsx";
import type { CatalogueItemKind, ItemShare, ItemTrack } from "./catalogue-items.server";
import { Cover } from "./track-list";

/** Spec 001 §8 internal messages of a failed album or playlist: the error beacon's `errordesc`. */
const catalogueItemMessages: Record<CatalogueItemKind, string> = {
  album: "musickit album data",
  playlist: "musickit playlist data",
};

/** The artwork's box (`.item-hero__artwork`): 160px, 240px on desktops. */
const artworkSize = 240;

/** Artwork, kind, name, who made it and the facts (year, genre, songs, length). */
export function ItemHero({
  eyebrow,
  name,
  byline,
  artwork,
  background,
  facts,
}: {
  /** What the item is: album, single, playlist. */
  eyebrow: string;
  name: string;
  byline: ReactNode;
  artwork: ImageData;
  background: string;
  facts: readonly string[];
}) {
  const { t } = useTranslation("catalogue");
  const { Image } = usePrimitives();
  const colour = safeColour(background);
  return (
    <header
      className="item-hero"
      style={colour ? ({ "--item-background": colour } as CSSProperties) : undefined}
    >
      <Image
        className="item-hero__artwork"
        image={artwork}
        width={artworkSize}
        height={artworkSize}
        layout="responsive"
        sizes="(min-width: 800px) 240px, 160px"
        alt={t("artworkAlt", { name })}
        eager
      />
      <div className="item-hero__text">
        <p className="item-hero__eyebrow">{eyebrow}</p>
        <h1 className="item-hero__name">{name}</h1>
        <p className="item-hero__byline">{byline}</p>
        <ul className="item-hero__facts">
          {facts.map((fact) => (
            <li key={fact}>{fact}</li>
          ))}
        </ul>
      </div>
    </header>
  );
}

/** The songs, each linking to its track page, with its preview, artist, count and length. */
export function ItemTracks({
  tracks,
  playlist,
}: {
  tracks: readonly ItemTrack[];
  playlist: readonly PlaylistEntry[];
}) {
  const { t } = useTranslation("catalogue");
  const { t: tTrack } = useTranslation("track");
  const { Link, PlayControl, ShowMore } = usePrimitives();
  return (
    <LabelledSection id="item-songs" heading={t("songs")}>
      <ShowMore long={tracks.length > foldedListItems} fold="list">
        <ol className="track-list item-tracks" aria-labelledby="item-songs">
          {tracks.map((track) => {
            const entry = track.playlistIndex === undefined ? undefined : playlist[track.playlistIndex];
            return (
              <li className="track-row track-row--playable" key={track.key}>
                <span className="track-row__rank">{track.position}</span>
                <Cover image={track.cover} />
                <span className="track-row__body">
                  <Link className="track-row__title" href={track.href}>
                    {track.title}
                  </Link>
                  <span className="track-row__artist">
                    {track.artistHref ? <Link href={track.artistHref}>{track.artist}</Link> : track.artist}
                  </span>
                  {track.count ? (
                    <span className="track-row__note">
                      {tTrack("identified", { count: track.count.total, formatted: track.count.formatted })}
                    </span>
                  ) : null}
                </span>
                {track.duration ? <span className="item-tracks__duration">{track.duration}</span> : null}
                {entry && track.playlistIndex !== undefined ? (
                  <PlayControl index={track.playlistIndex} entry={entry} href={track.href} />
                ) : null}
              </li>
            );
          })}
        </ol>
      </ShowMore>
    </LabelledSection>
  );
}

/** What the item's notes say, where it plays outside the site, and sharing. */
export function ItemAside({
  kind,
  notes,
  listenHref,
  canonical,
  share,
}: {
  kind: CatalogueItemKind;
  notes: string | undefined;
  listenHref: string | undefined;
  canonical: string;
  share: ItemShare;
}) {
  const { t } = useTranslation("catalogue");
  const { Link } = usePrimitives();
  return (
    <>
      {notes ? (
        <LabelledSection
          id="item-about"
          heading={kind === "album" ? t("aboutAlbum") : t("aboutPlaylist")}
          className="card item-notes"
        >
          <p>{notes}</p>
        </LabelledSection>
      ) : null}
      {listenHref ? (
        <p className="card">
          <Link href={listenHref} external>
            {t("listen")}
          </Link>
        </p>
      ) : null}
      <ShareLinks
        className="card"
        url={canonical}
        subject={share.subject}
        text={share.text}
        labels={{
          heading: kind === "album" ? t("shareAlbum") : t("sharePlaylist"),
          twitter: t("shareTwitter"),
          email: t("shareEmail"),
        }}
      />
    </>
  );
}

/** Playlists as square tiles, each opening its playlist page: the artist page's tiles. */
export const ItemTiles = ArtistTiles;

/**
 * The error page of an album or playlist, which also sends the error beacon of spec 001 §8 "Album,
 * playlist and video failures send an error beacon" (once, when the browser runtime is up; bots
 * and AMP pages send none, decision 006).
 */
export function CatalogueItemError({ kind }: { kind: CatalogueItemKind }) {
  const error = useRouteError();
  const runtime = useRuntime();
  const pathPrefix = useRootData()?.pathPrefix ?? "";
  const homeHref = `${pathPrefix}/`;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const type = isRouteErrorResponse(error) ? errorTypeOf(error.data) : "jserror";
  const sent = useRef(false);
  useEffect(() => {
    if (!runtime || sent.current) return;
    sent.current = true;
    void runtime.beacons.send({
      beaconType: "error",
      beaconId: `${kind}.error`,
      screenname: kind,
      errorcode: type ?? String(status),
      errordesc: catalogueItemMessages[kind],
    });
  }, [runtime, kind, type, status]);
  if (!isRouteErrorResponse(error)) console.error(error);
  // A catalogue item needs no account: a failure of one has nowhere to come back to after sign-in.
  return <ErrorPage status={status} type={type} homeHref={homeHref} signInHref={`${pathPrefix}/login`} />;
}
