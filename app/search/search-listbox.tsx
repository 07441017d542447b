import type { ReactNode } from "react";
import type {
  SearchBoxGroupView,
  SearchBoxItem,
  SearchBoxLive,
  SearchBoxOptionKey,
} from "#app/search/browser/search-box-model.ts";
import { useTranslation } from "#app/shell/strings.ts";
import { searchDropdownMaxHeightPx, searchDropdownWidthPx } from "./search-groups";

/**
 * The search combobox's popup (spec 000 §2): a listbox of the visible groups (Recent, Songs,
 * Artists), each with its options, its "show more" option and its message.
 */
export function SearchListbox({
  id,
  listboxId,
  views,
  query,
  expanded,
  optionProps,
}: {
  /** The combobox's id, which the groups' and options' ids start with. */
  id: string;
  listboxId: string;
  views: SearchBoxGroupView[];
  /** The term searched, for the no-results message. */
  query: string;
  expanded: boolean;
  optionProps: (
    key: SearchBoxOptionKey,
  ) => Omit<Parameters<typeof SearchOption>[0], "className" | "children">;
}) {
  const { t } = useTranslation("search");
  return (
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
                    ? t("messages.noresults", { term: query })
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
  );
}

/** Spec 000 §4, §9: the screen-reader message of the last search or recent-searches read. */
export function SearchLiveRegion({ live }: { live: SearchBoxLive | undefined }) {
  const { t } = useTranslation("search");
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
  return (
    <div role="status" aria-live="polite" className="visually-hidden">
      {live ? liveText(live) : ""}
    </div>
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
