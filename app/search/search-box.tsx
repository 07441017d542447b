import { useId, useRef, useState } from "react";
import type { LanguageKey } from "#rules/languages.ts";
import { SearchForm } from "./search-form";

type Combobox = typeof import("./search-combobox").SearchCombobox;

/**
 * The search box in the site header (spec 000 §2): a plain GET form to the search page, which is
 * all a first paint needs and all there is without JavaScript. The combobox (suggestions, recent
 * searches) is loaded on demand at the first focus or pointer over the box and then takes the
 * form's place, keeping what was typed and the focus; until then (or if it cannot load) the form
 * submits as it is. The server's markup never claims a popup it cannot open.
 */
export function SearchBox({
  lang,
  country,
  pathPrefix,
}: {
  lang: LanguageKey;
  country: string;
  pathPrefix: string;
}) {
  const inputId = `${useId()}-input`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [combobox, setCombobox] = useState<{ Combobox: Combobox }>();
  const loading = useRef(false);

  function load() {
    if (loading.current) return;
    loading.current = true;
    import("./search-combobox").then(
      ({ SearchCombobox }) => setCombobox({ Combobox: SearchCombobox }),
      (error: unknown) => {
        // The plain form still searches; the next focus tries again.
        loading.current = false;
        console.warn("search: the search box could not load", error instanceof Error ? error.message : error);
      },
    );
  }

  if (combobox) {
    const { Combobox } = combobox;
    return <Combobox lang={lang} country={country} pathPrefix={pathPrefix} takeOver={inputRef.current} />;
  }
  return (
    <SearchForm
      pathPrefix={pathPrefix}
      inputId={inputId}
      inputRef={inputRef}
      onFocus={load}
      onPointerEnter={load}
    />
  );
}
