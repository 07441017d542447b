/**
 * Whether the page runs inside the app's webview: the app's host object (spec 000 §3, §4). Apart
 * from the bridge so that the website's runtime asks without loading the bridge, its protocol
 * schemas and tag tracking, which only the app uses (about 7 KB of every first visit: decision 027, part 5).
 * The names belong to the protocol of docs/bridge-protocol.md.
 */

/** iOS: `window.webkit.messageHandlers.tunewave.postMessage(json)`. */
export const iosMessageHandlerName = "tunewave";
/** Android: `window.TunewaveAndroid.postMessage(json)` (a JavaScript interface object). */
export const androidInterfaceName = "TunewaveAndroid";

export type BridgePlatform = "ios" | "android";

export type HostPost = (json: string) => void;

export function propertyOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Finds the app's host object: iOS message handler first, then the Android interface. */
export function findAppHost(win: object): { platform: BridgePlatform; post: HostPost } | undefined {
  const iosHandler = propertyOf(
    propertyOf(propertyOf(win, "webkit"), "messageHandlers"),
    iosMessageHandlerName,
  );
  if (typeof propertyOf(iosHandler, "postMessage") === "function") {
    const handler = iosHandler as { postMessage(message: unknown): void };
    return { platform: "ios", post: (json) => handler.postMessage(json) };
  }
  const androidInterface = propertyOf(win, androidInterfaceName);
  if (typeof propertyOf(androidInterface, "postMessage") === "function") {
    const host = androidInterface as { postMessage(message: string): void };
    return { platform: "android", post: (json) => host.postMessage(json) };
  }
  return undefined;
}
