import type { ClickSource, LinkClick } from "#app/bridge/browser/in-app.ts";
import type { BeaconParams } from "#rules/beacon-params.ts";
import type { BeaconSender } from "./beacons";

/**
 * Spec 000 §7 "Outbound links wait 500 ms for their beacon": a plain click on a link to another
 * site (a store, a streaming service, the provider's social pages) sends an `outbound` statistic
 * and leaves once it is sent or 500 ms passed (`sendThenNavigate`), so the page that sends it is
 * not torn down before the beacon image is asked for. Links that open elsewhere (a new tab, a
 * download, a modified click) leave this page in place: their beacon goes without waiting.
 */

export const outboundBeaconId = "outbound";

type Anchor = { href: string; target: string; download: boolean };

function anchorOf(target: unknown): Anchor | undefined {
  if (typeof target !== "object" || target === null) return undefined;
  const closest = (target as { closest?: unknown }).closest;
  if (typeof closest !== "function") return undefined;
  const anchor = closest.call(target, "a[href]") as {
    href?: unknown;
    target?: unknown;
    hasAttribute?: (name: string) => boolean;
  } | null;
  if (typeof anchor?.href !== "string") return undefined;
  return {
    href: anchor.href,
    target: typeof anchor.target === "string" ? anchor.target : "",
    download: anchor.hasAttribute?.("download") === true,
  };
}

/** The host an http(s) link leaves for, or undefined when it stays on `origin` or is no web link. */
export function outboundHost(href: string, origin: string): string | undefined {
  if (!URL.canParse(href)) return undefined;
  const url = new URL(href);
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  return url.origin === origin ? undefined : url.host;
}

/** The statistic of one outbound link: which site the visitor left for. */
export function outboundParams(host: string): BeaconParams {
  return { beaconType: "userevent", beaconId: outboundBeaconId, providername: host };
}

export type OutboundOptions = {
  /** The site's own origin (`location.origin`). */
  origin: string;
  beacons: Pick<BeaconSender, "send" | "sendThenNavigate">;
  /** Leaves the page (`location.assign`). */
  assign: (url: string) => void;
};

/** Watches clicks on the document (call from an effect); returns the unsubscribe. */
export function interceptOutboundLinks(source: ClickSource, options: OutboundOptions): () => void {
  const listener = (event: LinkClick) => {
    // A deep link inside the app (in-app.ts) or a page's own handler got there first.
    if (event.defaultPrevented || event.button !== 0) return;
    const anchor = anchorOf(event.target);
    if (anchor === undefined) return;
    const host = outboundHost(anchor.href, options.origin);
    if (host === undefined) return;
    const modified = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
    const staysHere = modified || anchor.download || (anchor.target !== "" && anchor.target !== "_self");
    if (staysHere) {
      void options.beacons.send(outboundParams(host));
      return;
    }
    event.preventDefault();
    void options.beacons.sendThenNavigate(outboundParams(host), () => options.assign(anchor.href));
  };
  source.addEventListener("click", listener);
  return () => source.removeEventListener("click", listener);
}
