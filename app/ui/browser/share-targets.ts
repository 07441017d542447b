import * as v from "valibot";
import { type ShareData, shareDataSchema } from "#app/bridge/bridge-schema.ts";

/**
 * The share pop-up's rules (spec 000 §2 /share; spec 002 §9 "Share options: twitter and email"):
 * where each share option leads for the app's share data, and reading that data back from the
 * location state it travels in.
 */

export type ShareTargets = { twitter: string; email: string };

/** A tweet of the share's twitter text (else its text, else its title) with its link; an e-mail of the same. */
export function shareTargets(share: ShareData): ShareTargets {
  const twitter = new URL("https://twitter.com/intent/tweet");
  twitter.searchParams.set("text", share.twitter ?? share.text ?? share.title);
  twitter.searchParams.set("url", share.href);
  const subject = encodeURIComponent(share.subject ?? share.title);
  const body = encodeURIComponent(`${share.text ?? share.title}\n\n${share.href}`);
  return { twitter: twitter.href, email: `mailto:?subject=${subject}&body=${body}` };
}

const locationStateSchema = v.object({ share: shareDataSchema });

/**
 * The share data the share-sheet command put in the location state (components/runtime.tsx
 * `openPopup`). History state survives reloads and may come from an older page version, so it is
 * parsed again; anything else reads as no data.
 */
export function shareDataOf(state: unknown): ShareData | undefined {
  const parsed = v.safeParse(locationStateSchema, state);
  return parsed.success ? parsed.output.share : undefined;
}
