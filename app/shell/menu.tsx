import { type KeyboardEvent, useEffect, useRef } from "react";
import { type AnchoredPlacement, anchoredPlacements, Overlay } from "#app/ui/overlay.tsx";

/**
 * Spec 002 §2 "Menu", loaded on demand (§4 "Scripts loaded on demand: menu"): a list of links
 * around the button that opened it. Arrow keys, Home and End move between the items; Escape, a
 * click outside or choosing an item closes it, and the focus goes back to the button.
 */
export type MenuItem = { label: string; href: string; newWindow?: boolean };

export type MenuProps = {
  /** The button it opened from: placed around it, named by it. */
  anchor: HTMLElement;
  /** The menu's name (the button's text). */
  label: string;
  items: readonly MenuItem[];
  /**
   * Tried in order; the first that fits the viewport is used. By default every anchored placement:
   * below the button, else above it, beside it where a narrow screen has no room under or over.
   */
  placements?: readonly AnchoredPlacement[];
  onClose: () => void;
};

export default function Menu({ anchor, label, items, placements = anchoredPlacements, onClose }: MenuProps) {
  const list = useRef<HTMLDivElement>(null);
  const labelId = `${anchor.id || "menu"}-label`;

  useEffect(() => {
    list.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const entries = [...event.currentTarget.querySelectorAll<HTMLElement>("[role=menuitem]")];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const next: Record<string, number> = {
      ArrowDown: (at + 1) % entries.length,
      ArrowUp: (at - 1 + entries.length) % entries.length,
      Home: 0,
      End: entries.length - 1,
    };
    const index = next[event.key];
    if (index === undefined) return;
    event.preventDefault();
    entries[index]?.focus();
  };

  return (
    <Overlay placement={placements} anchor={anchor} labelledBy={labelId} className="menu" onClose={onClose}>
      <span id={labelId} hidden>
        {label}
      </span>
      <div className="menu__list" role="menu" aria-labelledby={labelId} ref={list} onKeyDown={onKeyDown}>
        {items.map((item) => (
          <a
            key={item.href}
            className="menu__item"
            role="menuitem"
            href={item.href}
            target={item.newWindow ? "_blank" : undefined}
            rel={item.newWindow ? "noopener noreferrer" : undefined}
            onClick={onClose}
          >
            {item.label}
          </a>
        ))}
      </div>
    </Overlay>
  );
}
