/**
 * The touch ripple (spec 002 §2 "a touch-ripple effect"; §9 "Ripple removed after 600 ms"): a
 * finger on a button leaves a circle spreading from where it touched. Only touch (a mouse or
 * keyboard press has its own hover and focus styles), and not for visitors who ask for less motion.
 * The circle is the button's `::after` (site.css), switched on by `data-ripple`: React replaces a
 * button's text by setting `textContent`, which would take an element of ours with it.
 */

/** Spec 002 §9 "Ripple removed after 600 ms". */
export const rippleMs = 600;

/** What ripples: the site's buttons and play controls (links styled as buttons included). */
const rippleTargets = ".button, .play-button, .now-playing__button";

type Timers = { setTimeout(run: () => void, ms: number): unknown };

/** Listens on `document` for touches on buttons; returns the way to stop. */
export function watchRipples(document: Document, timers: Timers): () => void {
  const view = document.defaultView;
  // The latest touch of each button: an earlier touch's timer leaves a newer ripple alone.
  const latest = new WeakMap<HTMLElement, object>();
  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerType !== "touch" || !(event.target instanceof HTMLElement)) return;
    const host = event.target.closest<HTMLElement>(rippleTargets);
    if (!host || view?.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const box = host.getBoundingClientRect();
    // A circle that covers the whole button from the touched point.
    const size = 2 * Math.hypot(box.width, box.height);
    host.style.setProperty("--ripple-size", `${size}px`);
    // Placed from the padding box, inside the border.
    host.style.setProperty("--ripple-left", `${event.clientX - box.left - host.clientLeft - size / 2}px`);
    host.style.setProperty("--ripple-top", `${event.clientY - box.top - host.clientTop - size / 2}px`);
    // A second touch starts the animation again.
    host.removeAttribute("data-ripple");
    void host.offsetWidth;
    host.setAttribute("data-ripple", "");
    const touch = {};
    latest.set(host, touch);
    timers.setTimeout(() => {
      if (latest.get(host) === touch) host.removeAttribute("data-ripple");
    }, rippleMs);
  };
  document.addEventListener("pointerdown", onPointerDown, { passive: true });
  return () => document.removeEventListener("pointerdown", onPointerDown);
}
