import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import {
  type RecentIdentification,
  recentIdentifications,
  removeRecentIdentification,
} from "#app/recognition/browser/recent-identifications.ts";
import { storageDefaultExpiryMs } from "#app/shell/browser/storage.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { usePageStrings } from "#app/shell/strings.ts";
import { type LanguageKey, languageOf } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import { dayMs } from "#rules/time.ts";

export type RecentIdentificationsProps = {
  lang: LanguageKey;
  strings: Record<string, unknown>;
  /**
   * The offline page (decision 057): the account is not known there, and the list is what this
   * device holds, shown whoever is signed in.
   */
  whateverTheAccount?: boolean;
};

/**
 * The list of app/recognition/recent-identifications.tsx, loaded once the runtime has started: its
 * storage reads and their schemas (valibot) are no part of the page's first visit (decision 027).
 */
export default function RecentIdentificationsList(props: RecentIdentificationsProps) {
  const { t } = usePageStrings("recognition", props.strings);
  const runtime = useRuntime();
  const [entries, setEntries] = useState<RecentIdentification[]>([]);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!runtime) return;
    const read = () => {
      const auth = runtime.auth();
      const signedOut = auth.phase === "initialized" && auth.login === null;
      const shown = signedOut || props.whateverTheAccount === true;
      setEntries(shown ? recentIdentifications(runtime.storage, Date.now()) : []);
    };
    read();
    // Decision 057: a recording heard offline joins the list when its answer comes.
    const stops = [runtime.onAuth(read), runtime.onRecentIdentifications(read)];
    return () => {
      for (const stop of stops) stop();
    };
  }, [runtime, props.whateverTheAccount]);

  if (!runtime || entries.length === 0) return null;
  const format = new Intl.DateTimeFormat(languageOf(props.lang).locale, {
    dateStyle: "medium",
    timeStyle: "short",
  });

  function remove(sessionId: string) {
    if (!runtime) return;
    removeRecentIdentification(runtime.storage, sessionId, Date.now());
    setEntries(recentIdentifications(runtime.storage, Date.now()));
    // The removed row took the focus with it: the list's heading has it next.
    headingRef.current?.focus();
  }

  return (
    <section className="recognition__recent" aria-labelledby="recognition-recent-title">
      <h2 id="recognition-recent-title" ref={headingRef} tabIndex={-1}>
        {t("recent.title")}
      </h2>
      <ul className="recognition__recent-list">
        {entries.map((entry) => {
          const title = entry.title ?? t("recent.unknown");
          return (
            <li key={entry.sessionId} className="recognition__recent-item">
              <span className="recognition__recent-song">
                <Link to={localizedPath(props.lang, entry.weburl)}>{title}</Link>
                {entry.artist ? <span className="muted">{entry.artist}</span> : null}
                <time className="muted" dateTime={new Date(entry.matchedAt).toISOString()}>
                  {format.format(entry.matchedAt)}
                </time>
              </span>
              <button
                type="button"
                className="button button--quiet"
                aria-label={t("recent.removeLabel", { title })}
                onClick={() => remove(entry.sessionId)}
              >
                {t("recent.remove")}
              </button>
            </li>
          );
        })}
      </ul>
      <p className="recognition__recent-note muted">
        {t("recent.note", { days: storageDefaultExpiryMs / dayMs })}
      </p>
    </section>
  );
}
