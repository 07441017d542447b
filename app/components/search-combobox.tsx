import { Form, useNavigate } from "@remix-run/react";
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import { createRecentSearches } from "~/client/recent-searches";
import {
  createSearchBoxReducer,
  initialSearchBoxModel,
  optionOf,
  type SearchBoxItem,
  type SearchBoxLive,
  type SearchBoxOptionKey,
  visibleGroups,
} from "~/client/search-box-model";
import { searchFirstPage, searchNextPage } from "~/client/search-box-results";
import { createSiteStorage } from "~/client/storage";
import {
  normalizeSearchTerm,
  searchDebounceMs,
  searchDropdownMaxHeightPx,
  searchDropdownWidthPx,
  searchLiveMessageMs,
  searchTermMaxLength,
} from "~/search-groups";
import { useTranslation } from "~/strings";
import type { LanguageKey } from "../../rules/languages";

/**
 * The search box's combobox (spec 000 §2), loaded on demand at the first focus of the header's
 * plain search form (app/components/search-box.tsx), which it then replaces: a WAI-ARIA combobox
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
  // The visible box uses common's strings, which every page has; the dropdown uses "search".
  const { t } = useTranslation("search");
  const id = useId();
  const inputId = `${id}-input`;
  const listboxId = `${id}-listbox`;
  const optionId = (key: SearchBoxOptionKey) => `${id}-${key.replace(":", "-")}`;
  const action = `${pathPrefix}/search`;
  const navigate = useNavigate();

  const [handedOver] = useState(() => ({
    input: takeOver?.value ?? "",
    focused: takeOver !== null && document.activeElement === takeOver,
    caret: takeOver?.selectionStart ?? null,
  }));
  const reducer = useMemo(() => createSearchBoxReducer(), []);
  const [model, dispatch] = useReducer(reducer, handedOver.input, initialSearchBoxModel);
  const modelRef = useRef(model);
  modelRef.current = model;
  const recents = useMemo(() => createRecentSearches(createSiteStorage()), []);
  const rootRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const debounce = useRef<ReturnType<typeof setTimeout>>();
  const inFlight = useRef<AbortController>();

  function readRecents() {
    const result = recents.read();
    if (!result.ok) console.warn("search: recent searches could not be read", result.error.message);
    dispatch({ type: "recentsRead", result });
  }

  function openBox() {
    dispatch({ type: "open" });
    if (normalizeSearchTerm(modelRef.current.input) === "") readRecents();
  }

  function cancelPending() {
    clearTimeout(debounce.current);
    inFlight.current?.abort();
  }

  async function runSearch(query: string) {
    cancelPending();
    const controller = new AbortController();
    inFlight.current = controller;
    dispatch({ type: "searchStarted", query });
    try {
      const page = await searchFirstPage(country, query, lang, { signal: controller.signal });
      dispatch({ type: "searchLoaded", query, ...page });
    } catch (error) {
      if (controller.signal.aborted) return;
      // Spec 000 §8 "Failed search request: only logged to the console."
      console.warn("search: the search request failed", error instanceof Error ? error.message : error);
      dispatch({ type: "searchFailed", query });
    }
  }

  async function showMore(group: "songs" | "artists") {
    const current = modelRef.current;
    const { state, next } = current.groups[group];
    if (state !== "SUCCESS" || next === undefined) return;
    const query = current.query;
    dispatch({ type: "moreStarted", group });
    try {
      const page = await searchNextPage(group, next, lang);
      dispatch({ type: "moreLoaded", group, query, ...page });
    } catch (error) {
      console.warn("search: the next page request failed", error instanceof Error ? error.message : error);
      dispatch({ type: "moreFailed", group, query });
    }
  }

  function changeInput(value: string) {
    cancelPending();
    dispatch({ type: "input", value });
    const query = normalizeSearchTerm(value);
    if (query === "") {
      readRecents();
      return;
    }
    const { query: searched, groups } = modelRef.current;
    const settled = ["SUCCESS", "EMPTY", "NO_RESULTS"].includes(groups.songs.state);
    if (query === searched && settled) return;
    debounce.current = setTimeout(() => void runSearch(query), searchDebounceMs);
  }

  function remember(term: string) {
    const saved = recents.add(term);
    if (!saved.ok) console.warn("search: the recent search could not be saved", saved.error.message);
  }

  function activate(key: SearchBoxOptionKey) {
    const current = modelRef.current;
    const { group, item, more } = optionOf(current, key);
    if (more) {
      if (group === "recent") dispatch({ type: "moreRecents" });
      else void showMore(group);
      return;
    }
    if (!item) return;
    if (group === "recent") {
      dispatch({ type: "input", value: item.title });
      remember(item.title);
      void runSearch(item.title);
      return;
    }
    remember(current.input);
    cancelPending();
    dispatch({ type: "close" });
    if (item.href) navigate(item.href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const current = modelRef.current;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp":
        event.preventDefault();
        if (!current.open) openBox();
        dispatch({ type: "move", direction: event.key === "ArrowDown" ? 1 : -1 });
        break;
      case "Enter":
        if (current.open && current.highlight !== undefined) {
          event.preventDefault();
          activate(current.highlight);
        }
        break;
      case "Escape":
        // A search input would also clear itself on Escape; here Escape only closes the dropdown.
        event.preventDefault();
        dispatch({ type: "close" });
        break;
      case "Tab":
        dispatch({ type: "close" });
        break;
    }
  }

  // Enter with nothing highlighted, or the button: the form goes to the search page.
  function onSubmit(_event: FormEvent<HTMLFormElement>) {
    remember(modelRef.current.input);
    cancelPending();
    dispatch({ type: "close" });
  }

  // Focus moves at the commit that removes the plain input (a layout effect, in the same task): a
  // passive effect ran a task later, and a key typed in between went to no input and was lost.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this replaces the plain input.
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!handedOver.focused || !input) return;
    // Focusing opens the box (onFocus), as the plain input's focus would have.
    input.focus();
    if (handedOver.caret !== null) input.setSelectionRange(handedOver.caret, handedOver.caret);
    // Text typed before the code arrived is searched as if typed now.
    if (handedOver.input !== "") changeInput(handedOver.input);
  }, []);

  // Spec 000 §2: a click outside closes the dropdown.
  useEffect(() => {
    if (!model.open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && rootRef.current?.contains(event.target)) return;
      dispatch({ type: "close" });
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [model.open]);

  // Spec 000 §4, §9: the screen-reader message is removed after 3000 ms.
  const liveSerial = model.live?.serial;
  useEffect(() => {
    if (liveSerial === undefined) return;
    const timer = setTimeout(
      () => dispatch({ type: "liveCleared", serial: liveSerial }),
      searchLiveMessageMs,
    );
    return () => clearTimeout(timer);
  }, [liveSerial]);

  const highlightedId = model.highlight === undefined ? undefined : optionId(model.highlight);
  useEffect(() => {
    if (highlightedId) document.getElementById(highlightedId)?.scrollIntoView({ block: "nearest" });
  }, [highlightedId]);

  useEffect(
    () => () => {
      clearTimeout(debounce.current);
      inFlight.current?.abort();
    },
    [],
  );

  const views = visibleGroups(model);
  const expanded = model.open && views.length > 0;

  function liveText(message: SearchBoxLive): string {
    switch (message.kind) {
      case "results":
        return t("live.results", {
          songs: t("live.songs", { count: message.songs }),
          artists: t("live.artists", { count: message.artists }),
        });
      case "noresults":
        return t("messages.noresults", { term: message.query });
      case "recents":
        return message.count === 0 ? t("messages.norecents") : t("live.recents", { count: message.count });
    }
  }

  function optionProps(key: SearchBoxOptionKey) {
    return {
      id: optionId(key),
      selected: model.highlight === key,
      onHighlight: () => dispatch({ type: "highlight", key }),
      onActivate: () => activate(key),
    };
  }

  return (
    <Form
      ref={rootRef}
      method="get"
      action={action}
      role="search"
      className="search-box site-header__second-row"
      onSubmit={onSubmit}
    >
      <label htmlFor={inputId} className="visually-hidden">
        {t("common:search.placeholder")}
      </label>
      <div className="search-box__field">
        <input
          ref={inputRef}
          id={inputId}
          className="search-box__input"
          type="search"
          name="term"
          value={model.input}
          placeholder={t("common:search.placeholder")}
          maxLength={searchTermMaxLength}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listboxId}
          aria-activedescendant={expanded ? highlightedId : undefined}
          onChange={(event) => changeInput(event.target.value)}
          onFocus={openBox}
          onClick={() => {
            if (!modelRef.current.open) openBox();
          }}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="search-box__submit">
          <span className="search-box__icon search-box__icon--search" aria-hidden="true" />
          <span className="visually-hidden">{t("common:nav.search")}</span>
        </button>
      </div>
      <div
        className="search-box__popup"
        hidden={!expanded}
        style={{ width: searchDropdownWidthPx, maxHeight: searchDropdownMaxHeightPx }}
      >
        <div id={listboxId} role="listbox" aria-label={t("box.suggestions")}>
          {views.map((view) => {
            const titleId = `${id}-${view.name}-title`;
            const moreKey = `${view.name}:more` as const;
            return (
              // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options with role=group; a fieldset is no listbox child.
              <div
                key={view.name}
                role="group"
                aria-labelledby={titleId}
                aria-busy={view.state === "LOADING"}
                className="search-box__group"
              >
                <div role="presentation" id={titleId} className="search-box__group-title">
                  {t(`groups.${view.name}`)}
                </div>
                {view.items.map((item, index) => {
                  const key = `${view.name}:${index}` as const;
                  return (
                    <SearchOption
                      key={key}
                      {...optionProps(key)}
                      className={`search-box__option search-box__option--${view.name}`}
                    >
                      <SearchRow item={item} group={view.name} />
                    </SearchOption>
                  );
                })}
                {view.hasMore ? (
                  <SearchOption {...optionProps(moreKey)} className="search-box__option search-box__more">
                    {view.state === "LOADING" ? t("box.loadingMore") : t("box.showMore")}
                  </SearchOption>
                ) : null}
                {view.message ? (
                  <div className="search-box__message">
                    {view.message === "noresults"
                      ? t("messages.noresults", { term: model.query })
                      : view.message === "loading"
                        ? t("box.searching")
                        : t("messages.norecents")}
                  </div>
                ) : null}
              </div>
            );
          })}
        </div>
      </div>
      <div role="status" aria-live="polite" className="visually-hidden">
        {model.live ? liveText(model.live.message) : ""}
      </div>
    </Form>
  );
}

/**
 * An option of the listbox. Focus stays in the input (aria-activedescendant names the highlighted
 * option), so a mouse press must not move it: the press is cancelled and the click activates.
 */
function SearchOption({
  id,
  selected,
  className,
  onHighlight,
  onActivate,
  children,
}: {
  id: string;
  selected: boolean;
  className: string;
  onHighlight: () => void;
  onActivate: () => void;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: keys go to the combobox input, which points here with aria-activedescendant (WAI-ARIA combobox pattern).
    <div
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={selected}
      className={className}
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={() => {
        if (!selected) onHighlight();
      }}
      onClick={onActivate}
    >
      {children}
    </div>
  );
}

function SearchRow({ item, group }: { item: SearchBoxItem; group: string }) {
  return (
    <>
      {group === "recent" ? (
        <span className="search-box__icon search-box__icon--recent" aria-hidden="true" />
      ) : item.image ? (
        <img
          className={`search-box__thumb search-box__thumb--${group}`}
          src={item.image.src}
          srcSet={item.image.srcSet}
          sizes="40px"
          width={40}
          height={40}
          alt=""
          decoding="async"
        />
      ) : (
        <span className={`search-box__thumb search-box__thumb--${group}`} aria-hidden="true" />
      )}
      <span className="search-box__text">
        <span className="search-box__title">{item.title}</span>
        {item.subtitle ? <span className="search-box__subtitle">{item.subtitle}</span> : null}
      </span>
    </>
  );
}
