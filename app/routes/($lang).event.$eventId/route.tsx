import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { loadEventPage } from "#app/concerts/events.server.ts";
import type { AmpView } from "#app/shell/amp-view.ts";
import { loadPage, requireKnownLanguage, siteOriginOf } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { absoluteUrl, requestMeta } from "#app/shell/meta.server.ts";
import { type PageMeta, pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import styles from "#app/styles/concerts.css";
import { SiteError } from "#rules/errors.ts";
import { EventView } from "./view";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

// Spec 002 §2 `/event/{eventId}`, exactly two segments (Remix matches no longer path here).

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const page = await loadPage(() =>
    loadEventPage(context, {
      eventId: params.eventId,
      origin: siteOriginOf(context.config),
      now: Date.now(),
    }).catch((error) => {
      // Spec 001 §8 'concert unavailable': the not-found page with the concert's own apology.
      if (error instanceof SiteError && error.type === "notfound") {
        throw data({ type: "concertunavailable" }, { status: 404 });
      }
      throw error;
    }),
  );
  const { t } = serverStrings(context.edge.lang);
  const place = `${page.venue.name}, ${page.venue.city}, ${page.venue.country}`;
  const when = page.time.localDate
    ? `${page.time.fulldate} ${page.time.startHourMin}`
    : t("concerts:timeToBeAnnounced");
  const image = page.featured?.background ?? page.photos[0]?.image ?? page.artist.image;
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("concerts:eventTitle", { name: page.name }),
    description: t("concerts:eventDescription", { artist: page.artist.name, when, place }),
    type: "website",
    image: image && {
      url: absoluteUrl(context, image.src),
      width: image.width,
      height: image.height,
      alt: page.name,
    },
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "MusicEvent",
      name: page.name,
      url: page.url,
      ...(page.startTime ? { startDate: page.startTime, endDate: page.endTime } : {}),
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      location: {
        "@type": "Place",
        name: page.venue.name,
        address: {
          "@type": "PostalAddress",
          addressLocality: page.venue.city,
          addressCountry: page.venue.country,
        },
        geo: { "@type": "GeoCoordinates", latitude: page.venue.lat, longitude: page.venue.lng },
      },
      performer: {
        "@type": "MusicGroup",
        name: page.artist.name,
        url: absoluteUrl(context, page.artist.href),
      },
      ...(image ? { image: absoluteUrl(context, image.src) } : {}),
    },
  };
  return { page, meta, strings: pickResources(context.edge.lang, ["concerts"]).concerts };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [];
  const { page } = data;
  const preloads = [page.featured?.background, page.featured?.logo, page.artist.image].flatMap((image) =>
    image
      ? [{ tagName: "link", rel: "preload", as: "image", href: image.src, imageSrcSet: image.srcSet }]
      : [],
  );
  // Spec 002 §2 "Featured-event images, artist artwork and video preview images are preloaded".
  return [...pageMeta(data.meta), ...preloads];
};

export const ampView: AmpView<typeof loader> = ({ data }) => <EventView page={data.page} />;

export default function EventRoute() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("concerts", strings);
  return <EventView page={page} />;
}
