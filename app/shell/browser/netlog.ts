/**
 * Debug logging over the network (spec 000 §2 "netlog=1 (debug logging)", §7 "POST
 * /services/log[/{tag}] body text"). Off unless the page address carries netlog=1 and the `netlog`
 * flag is on for the visitor (the served config limits it to the internal environments). Sending is
 * fire-and-forget: a logger that fails has nowhere to report to, so its failures are swallowed.
 */

import { featureNames } from "#rules/feature-names.ts";

export const netlogPath = "/services/log";

export function isNetlogEnabled(url: URL | string, features: readonly string[]): boolean {
  if (!features.includes(featureNames.netlog)) return false;
  return new URL(url, "http://localhost").searchParams.get("netlog") === "1";
}

export type Netlog = {
  readonly enabled: boolean;
  /** Sends the parts as one text line; returns once the POST settled (tests wait on it). */
  log(tag: string | undefined, ...parts: unknown[]): Promise<void>;
};

export type NetlogOptions = {
  enabled: boolean;
  /** Default: the global fetch at call time. */
  fetch?: typeof fetch;
};

export function createNetlog(options: NetlogOptions): Netlog {
  return {
    enabled: options.enabled,
    async log(tag, ...parts) {
      if (!options.enabled) return;
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const url = tag ? `${netlogPath}/${encodeURIComponent(tag)}` : netlogPath;
      try {
        await fetchImpl(url, {
          method: "POST",
          body: parts.map(textOf).join(" "),
          headers: { "Content-Type": "text/plain;charset=UTF-8" },
          credentials: "same-origin",
          keepalive: true,
        });
      } catch {
        // Nowhere to report a failed log line.
      }
    },
  };
}

function textOf(part: unknown): string {
  if (typeof part === "string") return part;
  if (part instanceof Error) return part.stack ?? `${part.name}: ${part.message}`;
  try {
    return JSON.stringify(part) ?? String(part);
  } catch {
    return String(part);
  }
}
