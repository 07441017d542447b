import * as v from "valibot";
import {
  type AboutBridge,
  aboutBridgeDataSchema,
  aboutBridgeType,
  type BridgeCommandData,
  type BridgeCommandType,
  type BridgeNotificationData,
  type BridgeNotificationType,
  type BridgeReplyData,
  type BridgeRequestData,
  type BridgeRequestType,
  bridgeCommandSchemas,
  bridgeEntryPointName,
  bridgeMessageSchema,
  bridgeNotificationSchemas,
  bridgeProtocolVersion,
  bridgeRequestSchemas,
  isReplyType,
  unreadableMessageReplyType,
} from "#app/bridge/bridge-schema.ts";
import { SiteError } from "#rules/errors.ts";
import { type BridgePlatform, findAppHost, propertyOf } from "./app-host";
import { createOutbox, messageOfError } from "./bridge-outbox";
import { createPendingReplies, issuesOf } from "./bridge-replies";

/**
 * The native-app bridge (spec 000 §3, §4, §8): the transport to the iOS and Android apps and the
 * message protocol over it. docs/bridge-protocol.md is the contract for app teams.
 *
 * - Page to app: a JSON string handed to the platform's host object.
 * - App to page: `window.tunewaveBridge.receive(json)`; every message is parsed with valibot, and
 *   a message that fails is refused with an error reply and a log line, never thrown.
 * - The bridge becomes native when an about-bridge message arrives; messages the page sends before
 *   that are queued and flushed in order.
 *
 * Nothing here touches `window` at import: `installBridge(window)` is called from an effect.
 */

/** Spec 002 §9 "request timeout 45 s": a request the app never answers fails with `timeout`. */
export const bridgeRequestTimeoutMs = 45_000;
/** Ours: the most messages held before about-bridge; the oldest is dropped beyond it. */
export const bridgeQueueLimit = 100;

export type BridgeLog = (message: string, detail?: unknown) => void;

export type BridgeOptions = {
  /** Where refused messages and failures are reported. Default `console.warn`. */
  log?: BridgeLog;
  /** A request not answered within this many ms fails with `timeout`. Default `bridgeRequestTimeoutMs`. */
  requestTimeoutMs?: number;
};

export type CommandHandler<T extends BridgeCommandType> = (data: BridgeCommandData<T>) => unknown;

export type Bridge = {
  /** The app platform whose host object was found; undefined on the website. */
  readonly platform: BridgePlatform | undefined;
  /** A host object exists: the page runs in the app's webview. */
  isSupported(): boolean;
  /** The about-bridge message has arrived. */
  isNative(): boolean;
  /** The latest about-bridge data. */
  about(): AboutBridge | undefined;
  /** Calls `listener` with each about-bridge data (at once if already native); returns the unsubscribe. */
  onAbout(listener: (about: AboutBridge) => void): () => void;
  /** Sends a request and resolves with the app's validated reply data. */
  request<T extends BridgeRequestType>(type: T, data: BridgeRequestData<T>): Promise<BridgeReplyData<T>>;
  /** Sends a message the app does not answer. False when it cannot be sent (website, invalid data). */
  notify<T extends BridgeNotificationType>(type: T, data: BridgeNotificationData<T>): boolean;
  /** Handles an app command; commands without a handler answer `unsupported`. Returns the unregister. */
  handle<T extends Exclude<BridgeCommandType, "aboutBridge">>(
    type: T,
    handler: CommandHandler<T>,
  ): () => void;
  /** The entry point for app-to-page messages: a JSON string (or an already parsed object). */
  receive(raw: unknown): void;
  /** Fails pending requests with `abort`, drops the queue and the handlers. */
  dispose(): void;
};

/** The error code a failure is answered with: its catalogue type, or `jserror` for a plain throw. */
function codeOfError(error: unknown): string {
  return error instanceof SiteError ? error.type : "jserror";
}

/** Builds a bridge over the host object found on `win`, without installing the global entry point. */
export function createBridge(win: object, options: BridgeOptions = {}): Bridge {
  const log: BridgeLog = options.log ?? ((message, detail) => console.warn(message, detail));
  const requestTimeoutMs = options.requestTimeoutMs ?? bridgeRequestTimeoutMs;
  const host = findAppHost(win);
  const replies = createPendingReplies(log);
  const outbox = createOutbox({ host, limit: bridgeQueueLimit, log, fail: replies.fail });
  const handlers = new Map<string, (data: unknown) => unknown>();
  const aboutListeners = new Set<(about: AboutBridge) => void>();
  let about: AboutBridge | undefined;
  let counter = 0;
  let disposed = false;

  /** Replies to an app message. Never queued: the app is evidently listening. */
  function reply(type: string, fields: { data?: unknown; error?: string }): void {
    outbox.post(JSON.stringify({ type, ...fields }), undefined);
  }

  function refuse(replyType: string, reason: string, raw: unknown): void {
    log(`bridge: malformed message refused: ${reason}`, raw);
    reply(replyType, { error: "malformed", data: { message: reason } });
  }

  function replyTypeOf(raw: unknown): string {
    const parsed = v.safeParse(bridgeMessageSchema.entries.responseType, propertyOf(raw, "responseType"));
    if (parsed.success && parsed.output !== undefined) return parsed.output;
    const type = v.safeParse(bridgeMessageSchema.entries.type, propertyOf(raw, "type"));
    return type.success ? type.output : unreadableMessageReplyType;
  }

  function acceptAbout(data: AboutBridge): void {
    about = data;
    outbox.open();
    for (const listener of aboutListeners) listener(data);
  }

  function runCommand(type: string, data: unknown, responseType: string | undefined): void {
    const replyType = responseType ?? type;
    if (!Object.hasOwn(bridgeCommandSchemas, type)) {
      reply(replyType, { error: "unsupported", data: { message: `Unsupported command ${type}` } });
      return;
    }
    const commandType = type as BridgeCommandType;
    const handler =
      commandType === aboutBridgeType
        ? (value: unknown) => acceptAbout(value as AboutBridge)
        : handlers.get(type);
    if (!handler) {
      reply(replyType, { error: "unsupported", data: { message: `Unsupported command ${type}` } });
      return;
    }
    const parsed = v.safeParse(bridgeCommandSchemas[commandType], data);
    if (!parsed.success) {
      refuse(replyType, `${type} data: ${issuesOf(parsed.issues)}`, data);
      return;
    }
    const succeed = (result: unknown) => {
      if (responseType !== undefined) reply(responseType, result === undefined ? {} : { data: result });
    };
    const failCommand = (error: unknown) => {
      log(`bridge: command ${type} failed`, error);
      reply(replyType, { error: codeOfError(error), data: { message: messageOfError(error) } });
    };
    let result: unknown;
    try {
      result = handler(parsed.output);
    } catch (error) {
      failCommand(error);
      return;
    }
    if (result instanceof Promise) result.then(succeed, failCommand);
    else succeed(result);
  }

  function dispatch(raw: unknown): void {
    let value = raw;
    if (typeof raw === "string") {
      try {
        value = JSON.parse(raw);
      } catch {
        refuse(unreadableMessageReplyType, "not JSON", raw);
        return;
      }
    }
    const parsed = v.safeParse(bridgeMessageSchema, value);
    if (!parsed.success) {
      const rawType = propertyOf(value, "type");
      if (typeof rawType === "string" && isReplyType(rawType)) {
        // A broken reply: the request it answers fails; replies are never answered.
        log(`bridge: malformed reply refused: ${issuesOf(parsed.issues)}`, value);
        replies.fail(rawType, new SiteError("baddata", `Malformed reply ${rawType}`));
        return;
      }
      refuse(replyTypeOf(value), issuesOf(parsed.issues), value);
      return;
    }
    const message = parsed.output;
    if (replies.settle(message.type, message.error, message.data)) return;
    if (isReplyType(message.type)) {
      log(`bridge: reply ${message.type} matches no pending request (late or repeated), dropped`);
      return;
    }
    if (message.error !== undefined) {
      // The app reporting an error about one of our messages: nothing to answer.
      log(`bridge: the app reported error ${message.error} for ${message.type}`, message.data);
      return;
    }
    runCommand(message.type, message.data, message.responseType);
  }

  return {
    platform: host?.platform,
    isSupported: () => host !== undefined,
    isNative: () => about !== undefined,
    about: () => about,
    onAbout(listener) {
      aboutListeners.add(listener);
      if (about !== undefined) listener(about);
      return () => aboutListeners.delete(listener);
    },
    request<T extends BridgeRequestType>(type: T, data: BridgeRequestData<T>): Promise<BridgeReplyData<T>> {
      const checked = v.safeParse(bridgeRequestSchemas[type].data, data);
      if (!checked.success) {
        return Promise.reject(new SiteError("invalidparam", `${type}: ${issuesOf(checked.issues)}`));
      }
      if (!host || disposed) return Promise.reject(new SiteError("unsupported", "No bridge support"));
      counter += 1;
      const responseType = `${type}#${counter}`;
      const reply = replies.expect(type, responseType, requestTimeoutMs);
      outbox.send(JSON.stringify({ type, data: checked.output, responseType }), responseType);
      return reply as Promise<BridgeReplyData<T>>;
    },
    notify(type, data) {
      const checked = v.safeParse(bridgeNotificationSchemas[type], data);
      if (!checked.success) {
        log(`bridge: ${type} not sent: ${issuesOf(checked.issues)}`, data);
        return false;
      }
      if (!host || disposed) return false;
      outbox.send(JSON.stringify({ type, data: checked.output }), undefined);
      return true;
    },
    handle(type, handler) {
      const wrapped = handler as (data: unknown) => unknown;
      handlers.set(type, wrapped);
      return () => {
        if (handlers.get(type) === wrapped) handlers.delete(type);
      };
    },
    receive(raw) {
      if (disposed) return;
      try {
        dispatch(raw);
      } catch (error) {
        log("bridge: message handling failed", error);
      }
    },
    dispose() {
      disposed = true;
      replies.failAll(new SiteError("abort", "Bridge disposed"));
      outbox.clear();
      handlers.clear();
      aboutListeners.clear();
    },
  };
}

/** The handshake: asks the app for its about-bridge message. Sent at once, never queued. */
function handshake(win: object): void {
  findAppHost(win)?.post(
    JSON.stringify({
      type: aboutBridgeType,
      data: { protocol: bridgeProtocolVersion },
      responseType: aboutBridgeType,
    }),
  );
}

/**
 * Creates the bridge, installs `window.tunewaveBridge.receive` and, inside the app, sends the
 * about-bridge handshake. Call from an effect (never during SSR); `dispose` undoes it.
 */
export function installBridge(win: object, options: BridgeOptions = {}): Bridge {
  const bridge = createBridge(win, options);
  const entryPoint = { receive: (raw: unknown) => bridge.receive(raw), protocol: bridgeProtocolVersion };
  const target = win as Record<string, unknown>;
  target[bridgeEntryPointName] = entryPoint;
  try {
    handshake(win);
  } catch (error) {
    (options.log ?? console.warn)("bridge: handshake not sent", error);
  }
  return {
    ...bridge,
    dispose() {
      bridge.dispose();
      if (target[bridgeEntryPointName] === entryPoint) delete target[bridgeEntryPointName];
    },
  };
}

/** Re-parses about-bridge data from elsewhere (a stored copy, a test fixture). */
export function parseAboutBridge(data: unknown): AboutBridge | undefined {
  const parsed = v.safeParse(aboutBridgeDataSchema, data);
  return parsed.success ? parsed.output : undefined;
}
