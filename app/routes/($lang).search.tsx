import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Cover, TrackList } from "#app/catalogue/track-list.tsx";
import {
  loadSearchPage,
  readSearchQuery,
  type SearchResultGroup,
  type SearchTopResult,
} from "#app/search/search.server.ts";
import { loadPage, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { requestMeta } from "#app/shell/meta.server.ts";
import { pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import type { ArtistSummary } from "#app/shell/view.ts";

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const query = readSearchQuery(new URL(request.url).searchParams);
  const page = await loadPage(() => loadSearchPage(context, query));
  const { t } = serverStrings(context.edge.lang);
  const meta = {
    ...requestMeta(context, request),
    title:
      page.kind === "results" || page.kind === "noresults"
        ? t("search:page.metaTitle", { term: page.term })
        : t("common:pageTitle.search"),
    description: t("search:page.description"),
    type: "website" as const,
  };
  // An overlong term is the visitor's mistake: the page says so, with the status of invalidparam.
  return data(
    { page, meta, strings: pickResources(context.edge.lang, ["search"]).search },
    { status: page.kind === "toolong" ? 400 : 200 },
  );
}

// Result pages are endless variations of one page: kept out of search engines' indexes.
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [
        ...pageMeta(data.meta),
        ...(data.page.kind === "empty" ? [] : [{ name: "robots", content: "noindex" }]),
      ]
    : [];

export default function Search() {
  const { page, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("search", strings);
  return (
    <div className="search-page">
      <h1 id="search-title">
        {page.kind === "results" ? t("page.resultsFor", { term: page.term }) : t("page.title")}
      </h1>
      <Form
        method="get"
        action={page.action}
        className="search-page__form"
        role="search"
        aria-labelledby="search-title"
      >
        <label htmlFor="search-page-term" className="search-page__label">
          {t("page.label")}
        </label>
        <div className="search-page__field">
          <input
            key={page.term}
            id="search-page-term"
            className="search-page__input"
            type="search"
            name="term"
            defaultValue={page.term}
            maxLength={page.maxLength}
            autoComplete="off"
            enterKeyHint="search"
            aria-invalid={page.kind === "toolong" ? true : undefined}
            aria-describedby={page.kind === "toolong" ? "search-page-error" : undefined}
          />
          <button type="submit" className="button">
            {t("page.submit")}
          </button>
        </div>
        {page.kind === "toolong" ? (
          <p id="search-page-error" className="search-page__error" role="alert">
            {t("page.tooLong", { max: page.maxLength })}
          </p>
        ) : null}
      </Form>
      {page.kind === "empty" ? (
        <section className="search-page__state card" aria-labelledby="search-empty">
          <h2 id="search-empty">{t("page.emptyTitle")}</h2>
          <p className="muted">{t("page.emptyText")}</p>
        </section>
      ) : null}
      {page.kind === "noresults" ? (
        <section className="search-page__state card" aria-labelledby="search-none">
          <h2 id="search-none">{t("messages.noresults", { term: page.term })}</h2>
          <p className="muted">{t("page.noResultsText")}</p>
        </section>
      ) : null}
      {page.kind === "results" && page.top ? <TopResult top={page.top} title={t("page.topResult")} /> : null}
      {page.kind === "results" ? (
        <div className="columns">
          <section className="section" aria-labelledby="search-songs">
            <h2 id="search-songs">{t("groups.songs")}</h2>
            {page.songs.items.length > 0 ? (
              <TrackList
                tracks={page.songs.items}
                lyricLines={page.songs.lyricLines}
                ranked={false}
                label={t("groups.songs")}
              />
            ) : (
              <p className="muted">{t(page.songs.previousHref ? "page.noMoreSongs" : "page.noSongs")}</p>
            )}
            <Pager
              group={page.songs}
              label={t("page.songsPages")}
              next={t("page.next")}
              previous={t("page.previous")}
            />
          </section>
          <section className="section" aria-labelledby="search-artists">
            <h2 id="search-artists">{t("groups.artists")}</h2>
            {page.artists.items.length > 0 ? (
              <ArtistList artists={page.artists.items} label={t("groups.artists")} />
            ) : (
              <p className="muted">
                {t(page.artists.previousHref ? "page.noMoreArtists" : "page.noArtists")}
              </p>
            )}
            <Pager
              group={page.artists}
              label={t("page.artistsPages")}
              next={t("page.next")}
              previous={t("page.previous")}
            />
          </section>
        </div>
      ) : null}
    </div>
  );
}

/** Spec 002 §3 "topresult (artist or track)": the best match, first and larger. */
function TopResult({ top, title }: { top: SearchTopResult; title: string }) {
  const item =
    top.kind === "track"
      ? { image: top.track.cover, name: top.track.title, detail: top.track.artist, href: top.track.href }
      : { image: top.artist.avatar, name: top.artist.name, detail: undefined, href: top.artist.href };
  return (
    <section className="section search-top" aria-labelledby="search-top">
      <h2 id="search-top">{title}</h2>
      <div className="search-top__item card">
        <Cover image={item.image} size={96} />
        <div>
          <Link className="search-top__name" to={item.href}>
            {item.name}
          </Link>
          {item.detail ? <p className="muted">{item.detail}</p> : null}
        </div>
      </div>
    </section>
  );
}

function ArtistList({ artists, label }: { artists: ArtistSummary[]; label: string }) {
  return (
    <ul className="search-artists" aria-label={label}>
      {artists.map((artist) => (
        <li className="search-artists__row" key={artist.id}>
          <Cover image={artist.avatar} size={56} />
          <Link className="search-artists__name" to={artist.href}>
            {artist.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function Pager({
  group,
  label,
  next,
  previous,
}: {
  group: SearchResultGroup<unknown>;
  label: string;
  next: string;
  previous: string;
}) {
  if (!group.nextHref && !group.previousHref) return null;
  return (
    <nav className="search-page__pager" aria-label={label}>
      {group.previousHref ? (
        <Link className="button button--quiet" to={group.previousHref} rel="prev" preventScrollReset>
          {previous}
        </Link>
      ) : null}
      {group.nextHref ? (
        <Link className="button button--quiet" to={group.nextHref} rel="next" preventScrollReset>
          {next}
        </Link>
      ) : null}
    </nav>
  );
}
