import { useNavigate } from "@remix-run/react";
import { type KeyboardEvent, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "react";
import { createRecentSearches } from "#app/search/browser/recent-searches.ts";
import {
  createSearchBoxReducer,
  initialSearchBoxModel,
  optionOf,
  type SearchBoxOptionKey,
} from "#app/search/browser/search-box-model.ts";
import { searchFirstPage, searchNextPage } from "#app/search/browser/search-box-results.ts";
import { createSiteStorage } from "#app/shell/browser/storage.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { normalizeSearchTerm, searchDebounceMs, searchLiveMessageMs } from "./search-groups";

/** Which part of the plain form being replaced has the focus: its input, its button, or neither. */
function focusedPart(plainInput: HTMLInputElement | null): "input" | "submit" | undefined {
  const active = document.activeElement;
  if (!plainInput || !active) return undefined;
  if (active === plainInput) return "input";
  return active instanceof HTMLButtonElement && active.type === "submit" && plainInput.form?.contains(active)
    ? "submit"
    : undefined;
}

/**
 * The search combobox's behaviour (spec 000 §2): its model, the recent searches, the debounced
 * search and next-page requests, what each key and option does, and the hand-over from the plain
 * input it replaces (the text typed so far, focus and caret, read at the first render).
 */
export function useSearchCombobox({
  lang,
  country,
  takeOver,
  optionId,
}: {
  lang: LanguageKey;
  country: string;
  takeOver: HTMLInputElement | null;
  optionId: (key: SearchBoxOptionKey) => string;
}) {
  const navigate = useNavigate();
  const [handedOver] = useState(() => ({
    input: takeOver?.value ?? "",
    focused: focusedPart(takeOver),
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
  function onSubmit() {
    remember(modelRef.current.input);
    cancelPending();
    dispatch({ type: "close" });
  }

  // Focus moves at the commit that removes the plain input (a layout effect, in the same task): a
  // passive effect ran a task later, and a key typed in between went to no input and was lost.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this replaces the plain input.
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (handedOver.focused === "submit") {
      // Tabbed past the input before the code arrived: the focus stays on the button, not the page.
      rootRef.current?.querySelector<HTMLButtonElement>("button[type=submit]")?.focus();
      return;
    }
    if (handedOver.focused !== "input" || !input) return;
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

  return {
    model,
    rootRef,
    inputRef,
    highlightedId,
    changeInput,
    openBox,
    activate,
    highlight: (key: SearchBoxOptionKey) => dispatch({ type: "highlight", key }),
    onKeyDown,
    onSubmit,
  };
}
