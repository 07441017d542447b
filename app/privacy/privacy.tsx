import type { ReactNode } from "react";
import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";

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

/** What a signed-out visitor sees where a privacy page needs the account: why, and the way in. */
export function PrivacySignIn({ text, href }: { text: string; href: string }) {
  const { t } = useTranslation("common");
  const { Link } = usePrimitives();
  return (
    <p className="privacy-signin card">
      <span>{text}</span> <Link href={href}>{t("account.signIn")}</Link>
    </p>
  );
}

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
