import { type ComponentType, useId, useRef, useState } from "react";
import type { AnchoredPlacement } from "#app/ui/overlay.tsx";
import type { MenuItem, MenuProps } from "./menu";
import { useRuntime } from "./runtime";

/**
 * The button of a menu (spec 002 §2). The menu's own code is loaded at the first press, through
 * the importer (§4 "Scripts loaded on demand: menu"), which tells the visitor when it is slow or
 * fails; until the page's script runs the button does nothing, so it is rendered by React pages only.
 */
export function MenuButton({
  label,
  items,
  placements,
  className = "button button--light",
}: {
  label: string;
  items: readonly MenuItem[];
  placements?: readonly AnchoredPlacement[];
  className?: string;
}) {
  const runtime = useRuntime();
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const [menu, setMenu] = useState<ComponentType<MenuProps>>();
  const [open, setOpen] = useState(false);

  const toggle = () => {
    if (open || !runtime) return setOpen(false);
    // A failed load has told the visitor through the info bar; the next press tries again.
    runtime
      .importOnDemand("menu", () => import("./menu"))
      .then(
        (loaded) => {
          setMenu(() => loaded.default);
          setOpen(true);
        },
        () => {},
      );
  };

  const Menu = menu;
  return (
    <>
      <button
        ref={button}
        id={id}
        type="button"
        className={className}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={toggle}
      >
        {label}
      </button>
      {open && Menu && button.current ? (
        <Menu
          anchor={button.current}
          label={label}
          items={items}
          placements={placements}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}
