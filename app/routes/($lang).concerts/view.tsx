import type { ReactNode } from "react";
import { ConcertCards } from "#app/concerts/concerts.tsx";
import type { ConcertList } from "#app/concerts/events.server.ts";
import { countryKey } from "#app/shell/places.ts";
import { useTranslation } from "#app/shell/strings.ts";
import { DemoBadge } from "#app/ui/demo-badge.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";

export type { ConcertList };

/** The list's address with some parameters set (undefined removes one); paging starts again. */
export function listHref(list: ConcertList, changes: Record<string, string | undefined>): string {
  const [path, search = ""] = list.baseHref.split("?");
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  return query ? `${path}?${query}` : (path ?? "");
}

/**
 * Spec 001 §2 concert pages: all upcoming, near me, in my country, with the filters today,
 * tomorrow, this weekend, custom range, all upcoming, location and artists. Every filter is a link
 * or a GET form, so each list is an address that works without JavaScript. `nearMe` is the
 * interactive Near Me control (the browser's location, asked for on a click) and `refine` the
 * custom range and artist form; the AMP page, which has neither, links to this page instead.
 */
export function ConcertsView({
  list,
  nearMe,
  refine,
}: {
  list: ConcertList;
  nearMe: ReactNode;
  refine: ReactNode;
}) {
  const { t } = useTranslation("concerts");
  const { t: common } = useTranslation("common");
  const { Link } = usePrimitives();
  const { query } = list;
  const scopes = [
    { scope: "all", label: t("scope.all") },
    { scope: "near", label: t("scope.near") },
    {
      scope: "country",
      label: t(countryKey(list.country, "scope.country", "scope.countryNamed"), list.country),
    },
  ] as const;
  const whens = [
    { when: "all", label: t("when.all") },
    { when: "today", label: t("when.today") },
    { when: "tomorrow", label: t("when.tomorrow") },
    { when: "weekend", label: t("when.weekend") },
  ] as const;
  const dropDates = { from: undefined, to: undefined };
  const total = list.groups.reduce((n, g) => n + g.cards.length, 0);
  return (
    <article className="concerts-page" aria-labelledby="concerts-title">
      <h1 id="concerts-title">{t("title")}</h1>
      <DemoBadge>{common("demoData")}</DemoBadge>
      <nav className="concert-filters" aria-label={t("filters")}>
        <ul className="chip-list" aria-label={t("scope.label")}>
          {scopes.map(({ scope, label }) => (
            <li key={scope}>
              <Link
                className="chip"
                href={listHref(list, { in: scope === "all" ? undefined : scope })}
                current={query.in === scope}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
        {nearMe}
        <ul className="chip-list" aria-label={t("when.label")}>
          {whens.map(({ when, label }) => (
            <li key={when}>
              <Link
                className="chip"
                href={listHref(list, { when: when === "all" ? undefined : when, ...dropDates })}
                current={query.when === when}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
        {refine}
      </nav>
      <p className="muted" aria-live="polite">
        {list.range ? t("rangeSummary", { from: list.range.from, to: list.range.to, count: total }) : null}
        {list.location
          ? ` ${t(list.location.source === "browser" ? "fromYourLocation" : "fromYourArea")}`
          : null}
      </p>
      {list.groups.length === 0 ? <p className="card">{t("none")}</p> : null}
      {list.groups.map(({ group, cards }) => (
        <section className="section" key={group} aria-labelledby={`concerts-${group}`}>
          <h2 id={`concerts-${group}`}>
            {group === "country"
              ? t(countryKey(list.country, "group.country", "group.countryNamed"), list.country)
              : t(`group.${group}`)}
          </h2>
          <ConcertCards cards={cards} />
        </section>
      ))}
      {list.nextHref ? (
        <p>
          <Link className="button button--quiet" href={list.nextHref}>
            {t("more")}
          </Link>
        </p>
      ) : null}
    </article>
  );
}

/** The custom range and artist filter: a GET form, so it works without JavaScript. */
export function ConcertRefineForm({ list }: { list: ConcertList }) {
  const { t } = useTranslation("concerts");
  const { query } = list;
  return (
    <form method="get" className="concert-form" aria-label={t("refine")}>
      {query.in !== "all" ? <input type="hidden" name="in" value={query.in} /> : null}
      {query.lat !== undefined && query.lng !== undefined ? (
        <>
          <input type="hidden" name="lat" value={String(query.lat)} />
          <input type="hidden" name="lng" value={String(query.lng)} />
        </>
      ) : null}
      <input type="hidden" name="when" value="range" />
      <label>
        {t("from")}
        <input type="date" name="from" defaultValue={query.from ?? ""} min={list.today} />
      </label>
      <label>
        {t("to")}
        <input type="date" name="to" defaultValue={query.to ?? ""} min={list.today} />
      </label>
      <label>
        {t("artistFilter")}
        <select name="artist" defaultValue={query.artist ?? ""}>
          <option value="">{t("allArtists")}</option>
          {list.artists.map((artist) => (
            <option key={artist.id} value={artist.id}>
              {artist.name}
            </option>
          ))}
        </select>
      </label>
      <button className="button" type="submit">
        {t("apply")}
      </button>
    </form>
  );
}

/** What the AMP page shows instead of the form: the same list on the interactive page. */
export function ConcertRefineLink({ list }: { list: ConcertList }) {
  const { t } = useTranslation("concerts");
  const { Link } = usePrimitives();
  return (
    <p>
      <Link href={list.baseHref}>{t("refineOnSite")}</Link>
    </p>
  );
}
