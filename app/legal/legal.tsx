import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { LegalSection } from "#rules/legal.ts";

/**
 * The chrome of a legal text, in the visitor's language: when it last changed and the notice that
 * its body is in the language it applies in (decision 024), then a list of its parts.
 */
export function LegalPreamble({
  sections,
  bodyLang,
  updated,
  notice,
  extra,
}: {
  sections: readonly LegalSection[];
  bodyLang: string;
  /** The date of the last change, formatted in the visitor's language. */
  updated: string;
  notice: string;
  /** One more entry of the contents (the French terms' anchor). */
  extra?: { id: string; text: string; lang: string };
}) {
  const { t } = useTranslation("legal");
  return (
    <>
      <p className="legal__meta">{t("updated", { date: updated })}</p>
      <p className="legal__notice">{notice}</p>
      <nav className="legal__contents" aria-label={t("contents")}>
        <ol>
          {sections.map((section) => (
            <li key={section.id} lang={bodyLang}>
              <a href={`#${section.id}`}>{section.heading}</a>
            </li>
          ))}
          {extra ? (
            <li lang={extra.lang}>
              <a href={`#${extra.id}`}>{extra.text}</a>
            </li>
          ) : null}
        </ol>
      </nav>
    </>
  );
}

/** A legal text's sections, each with its anchor; `lang` says which language the body is in. */
export function LegalSections({
  sections,
  lang,
  level = 2,
}: {
  sections: readonly LegalSection[];
  lang: string;
  level?: 2 | 3;
}) {
  const { Link } = usePrimitives();
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <div lang={lang} className="legal__body">
      {sections.map((section) => (
        <section
          key={section.id}
          id={section.id}
          className="legal__section"
          aria-labelledby={`${section.id}-h`}
        >
          <Heading id={`${section.id}-h`}>{section.heading}</Heading>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 48)}>{paragraph}</p>
          ))}
          {section.links?.length ? (
            <ul className="legal__links">
              {section.links.map((link) => (
                <li key={link.href}>
                  <Link href={link.href}>{link.text}</Link>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </div>
  );
}
