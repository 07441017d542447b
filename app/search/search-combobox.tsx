import { useId } from "react";
import { type SearchBoxOptionKey, visibleGroups } from "#app/search/browser/search-box-model.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { SearchForm } from "./search-form";
import { SearchListbox, SearchLiveRegion } from "./search-listbox";
import { useSearchCombobox } from "./use-search-combobox";

/**
 * The search box's combobox (spec 000 §2), loaded on demand at the first focus of the header's
 * plain search form (app/search/search-box.tsx), which it then replaces: a WAI-ARIA combobox
 * whose listbox holds the Recent, Songs and Artists groups. It takes over what the plain input
 * held (the text typed so far, focus and caret), read while it renders, before the plain input goes.
 */
export function SearchCombobox({
  lang,
  country,
  pathPrefix,
  takeOver,
}: {
  lang: LanguageKey;
  country: string;
  pathPrefix: string;
  /** The plain input this replaces. */
  takeOver: HTMLInputElement | null;
}) {
  const id = useId();
  const inputId = `${id}-input`;
  const listboxId = `${id}-listbox`;
  const optionId = (key: SearchBoxOptionKey) => `${id}-${key.replace(":", "-")}`;
  const box = useSearchCombobox({ lang, country, takeOver, optionId });
  const { model } = box;
  const views = visibleGroups(model);
  const expanded = model.open && views.length > 0;

  return (
    <SearchForm
      pathPrefix={pathPrefix}
      inputId={inputId}
      inputRef={box.inputRef}
      formRef={box.rootRef}
      onSubmit={box.onSubmit}
      input={{
        value: model.input,
        role: "combobox",
        "aria-autocomplete": "list",
        "aria-expanded": expanded,
        "aria-controls": listboxId,
        "aria-activedescendant": expanded ? box.highlightedId : undefined,
        onChange: (event) => box.changeInput(event.target.value),
        onFocus: box.openBox,
        onClick: () => {
          if (!model.open) box.openBox();
        },
        onKeyDown: box.onKeyDown,
      }}
    >
      <SearchListbox
        id={id}
        listboxId={listboxId}
        views={views}
        query={model.query}
        expanded={expanded}
        optionProps={(key) => ({
          id: optionId(key),
          selected: model.highlight === key,
          onHighlight: () => box.highlight(key),
          onActivate: () => box.activate(key),
        })}
      />
      <SearchLiveRegion live={model.live?.message} />
    </SearchForm>
  );
}
