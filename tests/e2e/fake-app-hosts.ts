import { aboutBridgeType, bridgeEntryPointName } from "#app/bridge/bridge-schema.ts";
import { androidInterfaceName, iosMessageHandlerName } from "#app/bridge/browser/app-host.ts";

/**
 * The native apps' side of the bridge, played in a page: the iOS message handler or the Android
 * JavaScript interface, recording what the page sends and answering it. Inject the source with
 * Playwright's `page.addInitScript(fakeAppHostScript(...))` (it then runs before the page's own
 * scripts, as the real host objects exist before them); unit tests run the same source against a
 * plain object standing in for `window`. Init scripts run on navigations (`page.goto`), not on
 * `page.setContent`.
 *
 * In the page afterwards:
 * - `window.__bridgeSent`: every message the page posted, parsed, in order (`{ unparsable }` for a
 *   post that was not JSON).
 * - `window.__bridgeDeliver(message)`: hands an app-to-page message to `window.tunewaveBridge.receive`,
 *   a string as it is (to send malformed JSON), anything else JSON-encoded. False before the page
 *   installed its entry point.
 */

export type FakeReply = { data?: unknown; error?: string };

export type FakeAppHostOptions = {
  platform: "ios" | "android";
  /** Answers the page's about-bridge handshake with this data. Omit to leave the page waiting. */
  about?: unknown;
  /** Answers every request of a type (`isSchemeSupported`, …) with this reply. Others go unanswered. */
  replies?: Record<string, FakeReply>;
  /** Delay of every answer, ms. Default 0 (the next task, as a real app answers asynchronously). */
  replyDelayMs?: number;
};

/** What the injected source adds to `window`. */
export type FakeAppHostGlobals = {
  __bridgeSent: Record<string, unknown>[];
  __bridgeDeliver: (message: unknown) => boolean;
};

export function fakeAppHostScript(options: FakeAppHostOptions): string {
  const config = {
    platform: options.platform,
    about: options.about,
    replies: options.replies ?? {},
    replyDelayMs: options.replyDelayMs ?? 0,
    iosHandler: iosMessageHandlerName,
    androidInterface: androidInterfaceName,
    entryPoint: bridgeEntryPointName,
    aboutType: aboutBridgeType,
  };
  return `(() => {
  const config = ${JSON.stringify(config)};
  const sent = [];
  window.__bridgeSent = sent;
  function deliver(message) {
    const entry = window[config.entryPoint];
    if (!entry || typeof entry.receive !== "function") return false;
    entry.receive(typeof message === "string" ? message : JSON.stringify(message));
    return true;
  }
  window.__bridgeDeliver = deliver;
  function answer(message) {
    if (typeof message.responseType !== "string") return;
    let reply;
    if (message.type === config.aboutType && config.about !== undefined) {
      reply = { type: message.responseType, data: config.about };
    } else if (Object.prototype.hasOwnProperty.call(config.replies, message.type)) {
      reply = Object.assign({ type: message.responseType }, config.replies[message.type]);
    }
    if (reply) setTimeout(() => deliver(reply), config.replyDelayMs);
  }
  function postMessage(body) {
    let message;
    try {
      message = typeof body === "string" ? JSON.parse(body) : body;
    } catch (error) {
      message = { unparsable: String(body) };
    }
    if (typeof message !== "object" || message === null) message = { unparsable: String(body) };
    sent.push(message);
    answer(message);
  }
  if (config.platform === "ios") {
    window.webkit = { messageHandlers: { [config.iosHandler]: { postMessage } } };
  } else {
    window[config.androidInterface] = { postMessage };
  }
})();
`;
}

/**
 * Runs the same source in Node against `target` standing in for `window` (unit tests). Timers are
 * looked up at call time, so `vi.useFakeTimers()` controls the answers.
 */
export function installFakeAppHost(
  target: Record<string, unknown>,
  options: FakeAppHostOptions,
): FakeAppHostGlobals {
  const run = new Function("window", "setTimeout", fakeAppHostScript(options));
  run(target, (callback: () => void, ms: number) => setTimeout(callback, ms));
  return target as unknown as FakeAppHostGlobals;
}
