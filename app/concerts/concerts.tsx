import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { EventTimeEnrichment } from "#rules/events.ts";
import type { EventCard } from "./events.server";

/** When a show starts, in its own zone: "Saturday, 28 November 2026 · 7:30 PM GMT", or "time to be announced". */
export function ShowTime({ time }: { time: EventTimeEnrichment }) {
  const { t } = useTranslation("concerts");
  if (!time.localDate) return <>{t("timeToBeAnnounced")}</>;
  return (
    <time dateTime={time.localDate}>
      {time.fullday} · {time.startHourMin} {time.timezoneAbbrevation}
    </time>
  );
}

/** A list of concerts: a date block, the name, the place, and how far it is when that is known. */
export function ConcertCards({ cards }: { cards: readonly EventCard[] }) {
  const { t } = useTranslation("concerts");
  const { Link } = usePrimitives();
  return (
    <ul className="concert-list">
      {cards.map((card) => (
        <li key={card.id} className="concert-card">
          <span className="concert-card__date" aria-hidden="true">
            <span className="concert-card__month">{card.time.month || "—"}</span>
            <span className="concert-card__day">{card.time.date || "?"}</span>
          </span>
          <span className="concert-card__text">
            <Link className="concert-card__name" href={card.href}>
              {card.name}
            </Link>
            <span className="concert-card__meta">
              <ShowTime time={card.time} />
            </span>
            <span className="concert-card__meta">
              {card.venue}, {card.city}, {card.country}
              {card.miles !== undefined ? ` · ${t("miles", { count: card.miles })}` : ""}
            </span>
            {card.time.isLeadUpShow ? <span className="badge">{t("soon")}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
