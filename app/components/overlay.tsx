import {
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from "react";
import { SiteError } from "../../edge/errors";

/**
 * The one overlay system (spec 002 §2 overlays and placements, §4 "Popup and overlay", §8
 * ABORTED). Every overlay is a modal `<dialog>`: the browser puts it in the top layer, makes the
 * page behind it inert; this adds the spec's rules on top:
 * - a second layer when one is already open (`data-layer="2"`);
 * - Tab wraps around inside it;
 * - Escape and a click outside close it, unless it is keepalive or modal;
 * - while a modal takeover is open, opening another overlay fails with ABORTED;
 * - focus goes back to where it was when the overlay closes (React removes the element, which the
 *   browser's own restore does not cover).
 */

/**
 * Spec 002 §2 overlay placements the site's overlays use. Growing from a node and the anchored
 * placements come with the first overlay that needs them (docs/decisions/025).
 */
export type OverlayPlacement = "takeover" | "modal" | "bottomup";

/** Spec 002 §8 ABORTED. */
export const modalTakeoverMessage = "Modal takeover in play. Can't dismiss";

type OpenOverlay = { modal: boolean; takeover: boolean };
/** The overlays open in this document, oldest first. */
const openOverlays: OpenOverlay[] = [];

/** Adds an overlay to the open ones: its layer (1, or 2 over another), or ABORTED under a modal takeover. */
export function openOverlay(overlay: OpenOverlay): { layer: 1 | 2; close(): void } {
  if (openOverlays.some((open) => open.modal && open.takeover)) {
    throw new SiteError("abort", modalTakeoverMessage);
  }
  openOverlays.push(overlay);
  return {
    layer: openOverlays.length > 1 ? 2 : 1,
    close() {
      const index = openOverlays.indexOf(overlay);
      if (index >= 0) openOverlays.splice(index, 1);
    },
  };
}

export type OverlayProps = {
  placement: OverlayPlacement;
  /** Neither Escape nor a click outside closes it; as a takeover it blocks other overlays. */
  modal?: boolean;
  /** Neither Escape nor a click outside closes it. */
  keepalive?: boolean;
  /** The page behind is dimmed. */
  masked?: boolean;
  /** The id of the overlay's heading (its accessible name). */
  labelledBy: string;
  describedBy?: string;
  className?: string;
  style?: CSSProperties;
  /** Asked to close (Escape, outside click, or refused): the owner stops rendering it. */
  onClose: () => void;
  /** Opening was refused (ABORTED under a modal takeover); `onClose` follows. */
  onAbort?: (error: SiteError) => void;
  children: ReactNode;
};

export function Overlay(props: OverlayProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const [layer, setLayer] = useState<1 | 2>();
  const dismissible = !props.modal && !props.keepalive;

  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once, for the life of the element.
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    let opened: ReturnType<typeof openOverlay>;
    try {
      opened = openOverlay({ modal: props.modal === true, takeover: props.placement === "takeover" });
    } catch (error) {
      if (error instanceof SiteError) latest.current.onAbort?.(error);
      latest.current.onClose();
      return;
    }
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setLayer(opened.layer);
    element.showModal();
    return () => {
      opened.close();
      if (element.open) element.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === "Tab") return keepTabInside(event);
    if (event.key !== "Escape") return;
    // Handled here, not by the browser's close request, so a modal one stays open every time.
    event.preventDefault();
    event.stopPropagation();
    if (dismissible) props.onClose();
  };

  // The dialog fills only the backdrop around its content box: a click on it is a click outside.
  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget && dismissible) props.onClose();
  };

  return (
    <dialog
      ref={dialog}
      className={`overlay overlay--${props.placement}${props.className ? ` ${props.className}` : ""}`}
      data-layer={layer}
      data-masked={props.masked ? "true" : undefined}
      aria-labelledby={props.labelledBy}
      aria-describedby={props.describedBy}
      style={props.style}
      onKeyDown={onKeyDown}
      onCancel={(event) => event.preventDefault()}
      onClick={onClick}
    >
      <div className="overlay__content">{props.children}</div>
    </dialog>
  );
}

const focusable = "a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex='0']";

/** A modal dialog keeps focus out of the page, not out of the browser's own UI: Tab wraps around here. */
function keepTabInside(event: KeyboardEvent<HTMLDialogElement>): void {
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(focusable)];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
