import {
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  type TouchEvent,
  useEffect,
  useRef,
  useState,
} from "react";
import { type Swipe, startSwipe } from "#app/ui/browser/swipe.ts";
import { SiteError } from "#rules/errors.ts";

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

/** Spec 002 §2 overlay placements: full takeover, modal, bottom-up, or around an anchor. */
export type OverlayPlacement = "takeover" | "modal" | "bottomup" | AnchoredPlacement;

/** Spec 002 §2 "positioned around an anchor": which side of it, and aligned how. */
export const anchoredPlacements = [
  "below",
  "above",
  "below-center",
  "right",
  "left",
  "right-center",
  "left-center",
] as const;
export type AnchoredPlacement = (typeof anchoredPlacements)[number];

type Rect = { top: number; left: number; width: number; height: number };
type Size = { width: number; height: number };

/** Where a box of `size` goes at `placement` around `anchor` (viewport pixels, no room checked). */
export function anchoredPosition(
  placement: AnchoredPlacement,
  anchor: Rect,
  size: Size,
): { top: number; left: number } {
  const right = anchor.left + anchor.width;
  const bottom = anchor.top + anchor.height;
  const centreX = anchor.left + anchor.width / 2 - size.width / 2;
  const centreY = anchor.top + anchor.height / 2 - size.height / 2;
  switch (placement) {
    case "below":
      return { top: bottom, left: anchor.left };
    case "below-center":
      return { top: bottom, left: centreX };
    case "above":
      return { top: anchor.top - size.height, left: anchor.left };
    case "right":
      return { top: anchor.top, left: right };
    case "right-center":
      return { top: centreY, left: right };
    case "left":
      return { top: anchor.top, left: anchor.left - size.width };
    case "left-center":
      return { top: centreY, left: anchor.left - size.width };
  }
}

/**
 * The first of `preferred` where the box fits inside the viewport; if none does, the first,
 * moved inside the viewport as far as it goes (a phone's narrow screen).
 */
export function placeAroundAnchor(
  preferred: readonly AnchoredPlacement[],
  anchor: Rect,
  size: Size,
  viewport: Size,
): { placement: AnchoredPlacement; top: number; left: number } {
  const fits = ({ top, left }: { top: number; left: number }) =>
    top >= 0 && left >= 0 && top + size.height <= viewport.height && left + size.width <= viewport.width;
  for (const placement of preferred) {
    const position = anchoredPosition(placement, anchor, size);
    if (fits(position)) return { placement, ...position };
  }
  const placement = preferred[0] ?? "below";
  const { top, left } = anchoredPosition(placement, anchor, size);
  const clamp = (value: number, room: number) => Math.max(0, Math.min(value, room));
  return {
    placement,
    top: clamp(top, viewport.height - size.height),
    left: clamp(left, viewport.width - size.width),
  };
}

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
  /** An anchored overlay tries these in order (the first that fits the viewport). */
  placement: OverlayPlacement | readonly AnchoredPlacement[];
  /** The node an anchored overlay is placed around and grows from. */
  anchor?: HTMLElement | null;
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
  const placements: readonly OverlayPlacement[] =
    typeof props.placement === "string" ? [props.placement] : props.placement;
  const anchored = props.anchor !== undefined;

  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once, for the life of the element.
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    let opened: ReturnType<typeof openOverlay>;
    try {
      opened = openOverlay({ modal: props.modal === true, takeover: placements[0] === "takeover" });
    } catch (error) {
      if (error instanceof SiteError) latest.current.onAbort?.(error);
      latest.current.onClose();
      return;
    }
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setLayer(opened.layer);
    element.showModal();
    if (props.anchor) placeAt(element, props.anchor, placements);
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

  const swipe = useSwipeDown(dialog, placements[0] === "bottomup" && dismissible, props.onClose);

  return (
    <dialog
      ref={dialog}
      className={`overlay overlay--${anchored ? "anchored" : placements[0]}${props.className ? ` ${props.className}` : ""}`}
      data-layer={layer}
      data-masked={props.masked ? "true" : undefined}
      aria-labelledby={props.labelledBy}
      aria-describedby={props.describedBy}
      style={props.style}
      onKeyDown={onKeyDown}
      onCancel={(event) => event.preventDefault()}
      onClick={onClick}
      {...swipe.handlers}
    >
      <div ref={swipe.content} className="overlay__content">
        {props.children}
      </div>
    </dialog>
  );
}

/** A sheet dragged down this far (of its height), or flicked down this fast, closes. */
const swipeCloseShare = 1 / 3;
const swipeClosePxPerMs = 0.5;

/**
 * A bottom-up sheet follows a finger dragging it down and closes when let go far or fast enough
 * (spec 002 §9 swipe lock: a gesture that locks sideways, or starts with the sheet scrolled, is left
 * to the browser).
 */
function useSwipeDown(dialog: RefObject<HTMLDialogElement | null>, enabled: boolean, close: () => void) {
  const content = useRef<HTMLDivElement>(null);
  const swipe = useRef<Swipe>();
  const follow = (offset: number) => {
    if (content.current) content.current.style.transform = offset > 0 ? `translateY(${offset}px)` : "";
  };
  if (!enabled) return { content, handlers: {} };
  return {
    content,
    handlers: {
      onTouchStart(event: TouchEvent<HTMLDialogElement>) {
        const touch = event.touches[0];
        swipe.current =
          event.touches.length === 1 && touch && (dialog.current?.scrollTop ?? 0) === 0
            ? startSwipe(touch.clientX, touch.clientY, event.timeStamp)
            : undefined;
      },
      onTouchMove(event: TouchEvent<HTMLDialogElement>) {
        const touch = event.touches[0];
        if (!swipe.current || !touch) return;
        swipe.current.move(touch.clientX, touch.clientY, event.timeStamp);
        if (swipe.current.axis === "y") follow(swipe.current.distance);
      },
      onTouchEnd() {
        const ended = swipe.current;
        swipe.current = undefined;
        const height = content.current?.offsetHeight ?? 0;
        const closing =
          ended?.axis === "y" &&
          ended.distance > 0 &&
          (ended.distance > height * swipeCloseShare || ended.velocity() > swipeClosePxPerMs);
        if (closing) close();
        else follow(0);
      },
    },
  };
}

/**
 * Places an open anchored overlay around its node, and makes it grow from that node (spec 002 §2
 * "growing from a node": the scale-in starts at the side that touches the anchor).
 */
function placeAt(
  element: HTMLDialogElement,
  anchor: HTMLElement,
  placements: readonly OverlayPlacement[],
): void {
  const preferred = placements.filter((placement): placement is AnchoredPlacement =>
    (anchoredPlacements as readonly string[]).includes(placement),
  );
  // The layout size: the bounding box is still scaled by the opening animation.
  const box = { width: element.offsetWidth, height: element.offsetHeight };
  const spot = placeAroundAnchor(preferred, anchor.getBoundingClientRect(), box, {
    width: document.documentElement.clientWidth,
    height: window.innerHeight,
  });
  element.dataset.placement = spot.placement;
  element.style.top = `${spot.top}px`;
  element.style.left = `${spot.left}px`;
  const origin: Record<AnchoredPlacement, string> = {
    below: "top left",
    "below-center": "top center",
    above: "bottom left",
    right: "top left",
    "right-center": "center left",
    left: "top right",
    "left-center": "center right",
  };
  element.style.transformOrigin = origin[spot.placement];
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
