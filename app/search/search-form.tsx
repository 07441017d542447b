import { Form } from "@remix-run/react";
import type { FormEvent, InputHTMLAttributes, ReactNode, Ref } from "react";
import { useTranslation } from "#app/shell/strings.ts";
import { searchTermMaxLength } from "./search-term";
// One chunk with the rest of every page's shell (app/shell/every-page.ts, decision 027).
import "#app/shell/every-page.ts";

/**
 * The header's search form (spec 000 §2): a GET form to the search page with one search field and
 * its button. The plain box (search-box.tsx) and the combobox that replaces it draw the same form;
 * the combobox adds its input attributes and, as children, its popup and live region.
 */
export function SearchForm({
  pathPrefix,
  inputId,
  inputRef,
  input,
  formRef,
  onSubmit,
  onFocus,
  onPointerEnter,
  children,
}: {
  pathPrefix: string;
  inputId: string;
  inputRef: Ref<HTMLInputElement>;
  /** Attributes and handlers the combobox adds to the input; none on the plain form. */
  input?: InputHTMLAttributes<HTMLInputElement>;
  formRef?: Ref<HTMLFormElement>;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  onFocus?: () => void;
  onPointerEnter?: () => void;
  children?: ReactNode;
}) {
  // Common's strings: every page has them, also before the combobox's own arrive.
  const { t } = useTranslation("common");
  return (
    <Form
      ref={formRef}
      method="get"
      action={`${pathPrefix}/search`}
      role="search"
      className="search-box site-header__search"
      onSubmit={onSubmit}
      onFocus={onFocus}
      onPointerEnter={onPointerEnter}
    >
      <label htmlFor={inputId} className="visually-hidden">
        {t("search.placeholder")}
      </label>
      <div className="search-box__field">
        <input
          ref={inputRef}
          id={inputId}
          className="search-box__input"
          type="search"
          name="term"
          placeholder={t("search.placeholder")}
          maxLength={searchTermMaxLength}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="search"
          {...input}
        />
        <button type="submit" className="search-box__submit">
          <span className="search-box__icon search-box__icon--search" aria-hidden="true" />
          <span className="visually-hidden">{t("nav.search")}</span>
        </button>
      </div>
      {children}
    </Form>
  );
}
