import { type CSSProperties, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "#app/shell/strings.ts";

export type ShowMoreProps = {
  /** Long enough to fold, as the data says (rows, lines, characters). */
  long: boolean;
  /** `list`: the first rows of the list inside; `text`: the first `lines` lines. */
  fold: "list" | "text";
  lines?: number;
  children: ReactNode;
};

/** A long list shows its first ten rows until the visitor asks for the rest. */
export const foldedListItems = 10;

/**
 * Spec 002 §2 "show-more/less controls", the React renderer's: long content is folded, with a
 * real button (`aria-expanded`, `aria-controls`) that unfolds and folds it again. The fold is CSS
 * and applies only where scripting is on (`@media (scripting: enabled)`), so the server's markup
 * is folded from the first paint (no jump at hydration), and a browser without scripting, or
 * without that media feature, shows everything and no button. Folded text that turns out to fit
 * (a wide screen, a short bio) gets no button.
 */
export function ShowMore({ long, fold, lines = 3, children }: ShowMoreProps) {
  const { t } = useTranslation("common");
  const id = useId();
  const body = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [fits, setFits] = useState(false);

  // Only folded text can fit: a folded list hides whole rows (display: none), which never overflow.
  // Text unfolded by a line its address names (site.css) says nothing about whether it fits.
  useEffect(() => {
    const element = body.current?.firstElementChild;
    if (!long || fold !== "text" || expanded || !element) return;
    const measure = () => {
      if (element.querySelector(":target, .is-found")) return;
      setFits(element.scrollHeight <= element.clientHeight + 1);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [long, fold, expanded]);

  // One element tree whatever the state: a remounted body would replace its children, and a
  // replaced element loses `:target` (the lyric line a search result opened the page at).
  const folds = long && !fits;
  const toggle = () => {
    setExpanded(!expanded);
    // Folding moves the button up: keep it (and the focus on it) in view.
    if (expanded) requestAnimationFrame(() => button.current?.scrollIntoView({ block: "nearest" }));
  };
  return (
    <div
      className={folds ? `show-more show-more--${fold}` : "show-more"}
      data-expanded={folds ? (expanded ? "true" : "false") : undefined}
      style={folds && fold === "text" ? ({ "--show-more-lines": lines } as CSSProperties) : undefined}
    >
      <div ref={body} id={id} className="show-more__body">
        {children}
      </div>
      {folds ? (
        <button
          ref={button}
          type="button"
          className="button button--quiet show-more__button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={toggle}
        >
          {expanded ? t("showLess") : t("showMore")}
        </button>
      ) : null}
    </div>
  );
}
