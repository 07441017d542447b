import type { Translate } from "./strings";

/** One entry of the root data's `languageLinks`. */
type LanguageLink = { key: string; locale: string; nativeName: string; href: string };

/**
 * The footer's list of interface languages, each a plain link to this page in that language.
 * Shared with AMP.
 */
export function LanguagePicker({
  links,
  current,
  t,
}: {
  links: readonly LanguageLink[];
  current: string;
  t: Translate;
}) {
  return (
    <nav aria-label={t("common:languagePicker.label")}>
      <ul className="lang-picker">
        {links.map((language) => (
          <li key={language.key}>
            <a
              href={language.href}
              hrefLang={language.locale}
              lang={language.locale}
              aria-current={language.key === current ? "true" : undefined}
            >
              {language.nativeName}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
