import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { usePrimitives } from "~/components/primitives";

/** The privacy pages (spec 000 §2 page type privacy), in the order the navigation lists them. */
export const privacyPages = [
  "landing",
  "policy",
  "download",
  "delete",
  "dataCategories",
  "transferNotice",
] as const;
export type PrivacyPage = (typeof privacyPages)[number];
export type PrivacyHrefs = Readonly<Record<PrivacyPage, string>>;

/**
 * One privacy page: its heading (the page's h1) and text, and the navigation between the privacy
 * pages beside it on wide screens, after it on phones.
 */
export function PrivacyLayout({
  page,
  hrefs,
  title,
  intro,
  children,
}: {
  /** The page shown: marked as current in the navigation. */
  page: PrivacyPage;
  hrefs: PrivacyHrefs;
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation("privacy");
  const { Link } = usePrimitives();
  return (
    <div className="privacy">
      <article className="privacy__main" aria-labelledby="privacy-title">
        <h1 id="privacy-title">{title}</h1>
        {intro ? <p className="privacy__intro">{intro}</p> : null}
        {children}
      </article>
      <nav className="privacy__nav" aria-label={t("nav.label")}>
        <ul>
          {privacyPages.map((key) => (
            <li key={key}>
              <Link href={hrefs[key]} current={key === page}>
                {t(`nav.${key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/**
 * The outcome of a step (sent, deleted, refused): announced as it appears (`role` status or alert)
 * and focused, so that keyboard and screen-reader users land on it after the form.
 */
export function PrivacyMessage({
  kind,
  children,
  id,
}: {
  kind: "status" | "alert";
  children: ReactNode;
  id?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} id={id} className={`privacy-message privacy-message--${kind}`} role={kind} tabIndex={-1}>
      {children}
    </div>
  );
}
