import { ShareLinks } from "#app/charts/share-links.tsx";
import { ConcertCards, ShowTime } from "#app/concerts/concerts.tsx";
import type { EventPage } from "#app/concerts/events.server.ts";
import { useTranslation } from "#app/shell/strings.ts";
import { LabelledSection } from "#app/ui/labelled-section.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";

/** The show's state as a person reads it (spec 002 §4 event time). */
function stateKey(time: EventPage["time"]): string {
  if (time.isActiveShow) return "state.active";
  if (time.isPostShow) return "state.post";
  if (time.isLeadUpShow) return "state.leadUp";
  return "state.pre";
}

/** Spec 002 §2 `/event/{eventId}`: the concert, its artist, setlist, photos, QR code and sharing. */
export function EventView({ page }: { page: EventPage }) {
  const { t } = useTranslation("concerts");
  const { Link, Image } = usePrimitives();
  const { time, venue } = page;
  return (
    <article className="event-page" aria-labelledby="event-title">
      <section className={page.featured ? "event-hero event-hero--featured" : "event-hero"}>
        {page.featured ? (
          <Image
            className="event-hero__background"
            image={page.featured.background}
            width={1440}
            height={1440}
            layout="responsive"
            sizes="100vw"
            alt=""
            eager
          />
        ) : null}
        <div className="event-hero__content">
          {page.featured ? (
            <Image
              className="event-hero__logo"
              image={page.featured.logo}
              width={300}
              height={100}
              layout="fixed"
              alt={t("featured")}
              eager
            />
          ) : null}
          <p className="event-hero__state">{t(stateKey(time))}</p>
          <h1 id="event-title">{page.name}</h1>
          <p className="event-hero__artist">
            <Link href={page.artist.href}>{page.artist.name}</Link>
          </p>
          <p className="event-hero__when">
            <ShowTime time={time} />
          </p>
          <p className="event-hero__where">
            {venue.name}, {venue.city}, {venue.country}
          </p>
          {time.duration > 0 ? <p>{t("duration", { count: time.duration })}</p> : null}
        </div>
      </section>

      <div className="event-columns">
        <LabelledSection id="event-artist" heading={t("artist")}>
          <div className="event-artist card">
            <Image
              className="event-artist__image"
              image={page.artist.image}
              width={96}
              height={96}
              layout="fixed"
              alt=""
            />
            <div>
              <p className="event-artist__name">
                <Link href={page.artist.href}>{page.artist.name}</Link>
              </p>
              <Link href={page.artistConcertsHref}>{t("moreByArtist", { artist: page.artist.name })}</Link>
            </div>
          </div>
        </LabelledSection>

        <LabelledSection id="event-qr" heading={t("qrTitle")}>
          <div className="event-qr card">
            <Image
              className="event-qr__code"
              image={page.qr}
              width={220}
              height={220}
              layout="fixed"
              sizes="220px"
              alt={t("qrAlt", { name: page.name })}
            />
            <p className="muted">{t("qrText")}</p>
          </div>
        </LabelledSection>
      </div>

      {page.setlist.length > 0 ? (
        <LabelledSection id="event-setlist" heading={time.isPostShow ? t("setlist") : t("expectedSetlist")}>
          <ol className="event-setlist card">
            {page.setlist.map((entry) => (
              <li key={entry.href ?? entry.title}>
                <Link href={entry.href}>{entry.title}</Link>
              </li>
            ))}
          </ol>
        </LabelledSection>
      ) : null}

      {page.photos.length > 0 ? (
        <LabelledSection id="event-photos" heading={t("photos")}>
          <ul className="event-photos">
            {page.photos.map((photo) => (
              <li key={photo.image.src}>
                <Image
                  image={photo.image}
                  width={500}
                  height={500}
                  layout="responsive"
                  sizes="(max-width: 650px) 100vw, 360px"
                  alt={photo.alt}
                />
              </li>
            ))}
          </ul>
          <p className="muted">{t("photosNote")}</p>
        </LabelledSection>
      ) : null}

      {page.playlists.length > 0 ? (
        <LabelledSection id="event-playlists" heading={t("playlists")}>
          <ul className="card event-playlists">
            {page.playlists.map((playlist) => (
              <li key={playlist.name}>
                {playlist.name}
                {playlist.curator ? <span className="muted"> · {playlist.curator}</span> : null}
              </li>
            ))}
          </ul>
        </LabelledSection>
      ) : null}

      {/* Spec 002 §2 "Event page share: link to the event page, title is the event name, subtitle is the artist name". */}
      <ShareLinks
        className="section"
        url={page.url}
        subject={page.name}
        text={`${page.name} · ${page.artist.name}`}
        labels={{ heading: t("share"), twitter: t("shareTwitter"), email: t("shareEmail") }}
      />

      {page.upcoming.length > 0 ? (
        <LabelledSection id="event-upcoming" heading={t("upcomingByArtist", { artist: page.artist.name })}>
          <ConcertCards cards={page.upcoming} />
        </LabelledSection>
      ) : null}

      <p>
        <Link href={page.concertsHref}>{t("allConcerts")}</Link>
      </p>
      {page.attribution ? (
        <p className="muted event-attribution">
          <Image image={page.attribution.logo} width={150} height={50} layout="fixed" alt="" />
          <span>{t("listingsBy", { name: page.attribution.name })}</span>
        </p>
      ) : null}
    </article>
  );
}
