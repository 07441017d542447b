import { Form } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";
import { Cover } from "#app/catalogue/track-list.tsx";
import type { LibraryItem } from "#app/library/library.ts";
import { Trans, useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";

/** What a removal or its undo did, shown above the list (a status message screen readers announce). */
export type TagChangeNotice =
  | { outcome: "removed" | "restored"; tagid: string; title: string }
  | { outcome: "gone" };

export type LibraryLinks = { identify: string; exportCsv: string; exportJson: string };

/**
 * The library page's frame: its heading, the spec's "soon removed" notice while the
 * `mylibrarysunset` flag is on, then the state's content.
 */
export function LibraryFrame({
  count,
  sunset,
  children,
}: {
  count: number | undefined;
  sunset: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation("library");
  return (
    <article className="library" aria-labelledby="library-title">
      <header className="library__head">
        <h1 id="library-title">{t("title")}</h1>
        {count === undefined ? null : <p className="library__count">{t("count", { count })}</p>}
      </header>
      {/* Spec 001 §1, 002 §1: "My Library is announced as soon to be removed from the website". */}
      {sunset ? <p className="library__notice">{t("removalNotice")}</p> : null}
      {children}
    </article>
  );
}

/** One identified song: cover, title, artist, when and where, and its removal (where the library allows it). */
export function LibraryRow({ item, removable = true }: { item: LibraryItem; removable?: boolean }) {
  const { t } = useTranslation("library");
  const { Link } = usePrimitives();
  return (
    <li className="track-row track-row--unranked library-row">
      <Cover image={item.track.cover} />
      <span>
        <Link className="track-row__title" href={item.track.href}>
          {item.track.title}
        </Link>
        <span className="track-row__artist">{item.track.artist}</span>
        <span className="library-row__when">
          <Trans
            t={t}
            i18nKey={item.where ? "identifiedIn" : "identified"}
            values={{ when: item.when, where: item.where }}
            components={{ time: <time dateTime={item.time} /> }}
          />
        </span>
      </span>
      {removable ? (
        <Form method="post" className="library-row__remove">
          <input type="hidden" name="tagid" value={item.tagid} />
          <button
            type="submit"
            name="intent"
            value="remove"
            className="button button--quiet"
            aria-label={t("removeLabel", { title: item.track.title })}
          >
            {t("remove")}
          </button>
        </Form>
      ) : null}
    </li>
  );
}

/** The result of a removal or an undo; a removal offers its undo. */
export function TagChangeStatus({ notice }: { notice: TagChangeNotice | undefined }) {
  const { t } = useTranslation("library");
  return (
    <div role="status" className="library__status">
      {notice === undefined ? null : notice.outcome === "gone" ? (
        <p>{t("gone")}</p>
      ) : (
        <Form method="post" className="library__undo">
          <p>{t(notice.outcome, { title: notice.title })}</p>
          {notice.outcome === "removed" ? (
            <>
              <input type="hidden" name="tagid" value={notice.tagid} />
              <button type="submit" name="intent" value="restore" className="button button--quiet">
                {t("undo")}
              </button>
            </>
          ) : null}
        </Form>
      )}
    </div>
  );
}

/** Closes the menu a chosen item is in: the download starts, the menu no longer covers the list. */
function closeMenu(event: MouseEvent<HTMLAnchorElement>) {
  const menu = event.currentTarget.closest("details");
  if (menu) menu.open = false;
}

/** The export: one command, two files. A `<details>` menu: keyboard and no-script friendly. */
export function LibraryExport({ links }: { links: LibraryLinks }) {
  const { t } = useTranslation("library");
  return (
    <details className="library-export">
      <summary className="button button--quiet">{t("export")}</summary>
      <div className="library-export__panel card">
        <p className="muted">{t("exportHelp")}</p>
        <ul>
          <li>
            <a href={links.exportCsv} download onClick={closeMenu}>
              {t("exportCsv")}
            </a>
          </li>
          <li>
            <a href={links.exportJson} download onClick={closeMenu}>
              {t("exportJson")}
            </a>
          </li>
        </ul>
      </div>
    </details>
  );
}

export function EmptyLibrary({ identifyHref }: { identifyHref: string }) {
  const { t } = useTranslation("library");
  const { Link } = usePrimitives();
  return (
    <section className="library-empty card" aria-labelledby="library-empty-title">
      <h2 id="library-empty-title">{t("emptyTitle")}</h2>
      <p>{t("emptyText")}</p>
      <Link className="button" href={identifyHref}>
        {t("emptyAction")}
      </Link>
    </section>
  );
}

/** A page of the library, with its range, the paging links and the export. */
export function LibraryList({
  items,
  offset,
  count,
  olderHref,
  newestHref,
  links,
}: {
  items: readonly LibraryItem[];
  offset: number;
  count: number;
  olderHref: string | undefined;
  newestHref: string | undefined;
  links: LibraryLinks;
}) {
  const { t } = useTranslation("library");
  const { Link } = usePrimitives();
  return (
    <>
      <div className="library__tools">
        <p className="muted">{t("range", { from: offset + 1, to: offset + items.length, count })}</p>
        <LibraryExport links={links} />
      </div>
      <ol className="track-list library-list" aria-label={t("listLabel")} start={offset + 1}>
        {items.map((item) => (
          <LibraryRow key={item.tagid} item={item} />
        ))}
      </ol>
      {olderHref || newestHref ? (
        <nav className="library__pages" aria-label={t("pages")}>
          {newestHref ? (
            <Link className="button button--quiet" href={newestHref}>
              {t("newest")}
            </Link>
          ) : null}
          {olderHref ? (
            <Link className="button button--quiet" href={olderHref}>
              {t("older")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

export function SignedOutLibrary({ loginHref }: { loginHref: string }) {
  const { t } = useTranslation("library");
  const { Link } = usePrimitives();
  return (
    <section className="library-empty card" aria-labelledby="library-signin-title">
      <h2 id="library-signin-title">{t("signedOutTitle")}</h2>
      <p>{t("signedOutText")}</p>
      <Link className="button" href={loginHref}>
        {t("signIn")}
      </Link>
    </section>
  );
}
