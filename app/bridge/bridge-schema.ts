import * as v from "valibot";
import { campaignNameSchema } from "#rules/campaign-name.ts";

/**
 * The native-app bridge protocol (spec 000 §3 "Native bridge message", §4, §8; spec 002 §3, §5,
 * §7): every message the page and the iOS/Android apps exchange, as valibot schemas. Pure, so the
 * browser runtime, the tests and an app team's fixtures share one contract. docs/bridge-protocol.md
 * is the prose of this file.
 *
 * Objects are parsed with `v.object`: fields this version does not know are dropped, never refused,
 * so an app may add fields before the page reads them.
 */

/** Bumped only for changes an app must follow; sent in the about-bridge handshake. */
export const bridgeProtocolVersion = 1;
// The app's host objects' names are in app/bridge/browser/app-host.ts: the website asks for them without this file.
/** App to page: `window.tunewaveBridge.receive(json)`. */
export const bridgeEntryPointName = "tunewaveBridge";
/** Type of the handshake request and of the app's answer (spec 000 §4: native once it arrives). */
export const aboutBridgeType = "aboutBridge";
/** Reply type of an error reply to a message whose own type could not be read. */
export const unreadableMessageReplyType = "error";

/**
 * Codes of the `error` field. `unsupported` (spec 000 §8: "Unsupported bridge commands reply with
 * error unsupported") and `malformed` belong to the protocol; a failing command answers with the
 * type of its error from the catalogue in rules/errors.ts (`notfound`, `invalidparam`, …).
 */
export const bridgeProtocolErrors = ["unsupported", "malformed"] as const;
export type BridgeProtocolError = (typeof bridgeProtocolErrors)[number];

const messageTypePattern = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
/** A reply type is the request's type, `#` and a per-page counter: `isSchemeSupported#3`. */
const replyTypePattern = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}#\d{1,10}$/;

export function isReplyType(type: string): boolean {
  return replyTypePattern.test(type);
}

const messageType = v.pipe(
  v.string(),
  v.check(
    (type) => messageTypePattern.test(type) || replyTypePattern.test(type),
    "unknown message type shape",
  ),
);

/** Absent and `null` (what some JSON encoders write for a missing field) both read as absent. */
function absentable<const S extends v.GenericSchema>(schema: S) {
  return v.pipe(
    v.nullish(schema),
    v.transform((value) => value ?? undefined),
  );
}

/** Spec 000 §3: "Native bridge message: type, data, error, responseType." */
export const bridgeMessageSchema = v.object({
  type: messageType,
  data: absentable(v.unknown()),
  error: absentable(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  responseType: absentable(messageType),
});
export type BridgeMessage = v.InferOutput<typeof bridgeMessageSchema>;

const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));
const finiteNumber = v.pipe(v.number(), v.finite());
const httpUrl = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.url(),
  v.check((value) => /^https?:\/\//i.test(value), "an http or https URL"),
);
/** Track ids and keys: path segments of /track/{id}. */
const trackId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "a track id"));
const screenname = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, "a screen name"));
/** Android and iOS level: a whole number, sent as a number or a digit string. */
const apiLevel = v.union([
  v.pipe(v.number(), v.integer(), v.minValue(0)),
  v.pipe(v.string(), v.regex(/^\d{1,4}$/), v.transform(Number)),
]);

// --- App to page -------------------------------------------------------------------------------

/**
 * Spec 000 §3: "The about-bridge reply data carries os (with APILevel) and client.version."
 * `os.APILevel` is the Android API level, or the iOS major version. Membership is the app's flag of
 * spec 000 §3 "User object": `member` or `nonmember_{reason}`. `country` is the native app web
 * config's country (spec 000 §4 country choice).
 */
export const aboutBridgeDataSchema = v.object({
  os: v.object({
    name: v.optional(v.picklist(["ios", "android"])),
    APILevel: apiLevel,
    version: v.optional(v.pipe(v.string(), v.maxLength(32))),
  }),
  client: v.object({
    version: v.pipe(v.string(), v.regex(/^\d+(\.\d+){0,3}([-+][0-9A-Za-z.-]{1,32})?$/, "a dotted version")),
  }),
  appleMusicMembership: v.optional(v.pipe(v.string(), v.regex(/^(member|nonmember_[a-z0-9_]{1,32})$/))),
  country: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2}$/), v.toUpperCase())),
  /**
   * Spec 000 §3 user object `showUpsell`, spec 002 §6 "(redemption or trial type)": the app says
   * which upsell its user gets; a redemption names the offer (`/campaign/{offer}`) to redeem.
   */
  showUpsell: v.optional(v.picklist(["trial", "redemption"])),
  offer: v.optional(campaignNameSchema),
});
export type AboutBridge = v.InferOutput<typeof aboutBridgeDataSchema>;

/** Spec 000 §2 "/track/{id}: opened when the native app sends a track-result command". */
export const trackResultCommandSchema = v.object({ trackId });
export type TrackResultCommand = v.InferOutput<typeof trackResultCommandSchema>;

/** Spec 000 §3 page meta and spec 002 §2 event share: what the share pop-up shows. */
export const shareDataSchema = v.object({
  href: httpUrl,
  title: text(300),
  subtitle: v.optional(text(300)),
  subject: v.optional(text(300)),
  text: v.optional(text(1000)),
  image: v.optional(httpUrl),
  twitter: v.optional(text(300)),
});
export type ShareData = v.InferOutput<typeof shareDataSchema>;

/** Spec 000 §2 "/share with optional /{screenname}: full-screen pop-up carrying the share data". */
export const shareSheetCommandSchema = v.object({
  screenname: v.optional(screenname),
  share: shareDataSchema,
});
export type ShareSheetCommand = v.InferOutput<typeof shareSheetCommandSchema>;

/**
 * Spec 002 §3 "Tag context: timestamp, tagtimestamp, offset, sessionStart, trackid, timeskew,
 * frequencyskew, isNative". Times are epoch ms, `offset` is the position in the track at
 * `tagtimestamp` in ms. Without `sessionStart` (when the track started playing) it is
 * `tagtimestamp - offset`.
 */
export const tagContextSchema = v.pipe(
  v.object({
    timestamp: finiteNumber,
    tagtimestamp: finiteNumber,
    offset: v.pipe(finiteNumber, v.minValue(0)),
    sessionStart: v.optional(finiteNumber),
    trackid: trackId,
    timeskew: v.optional(finiteNumber, 0),
    frequencyskew: v.optional(finiteNumber, 0),
    isNative: v.optional(v.boolean(), true),
  }),
  v.transform((context) => ({
    ...context,
    sessionStart: context.sessionStart ?? context.tagtimestamp - context.offset,
  })),
);
export type TagContext = v.InferOutput<typeof tagContextSchema>;

/** Spec 002 §4: tagging "interrupted when the app is backgrounded, resumed when the view reappears". */
export const viewStateCommandSchema = v.object({ state: v.picklist(["background", "foreground"]) });
export type ViewStateCommand = v.InferOutput<typeof viewStateCommandSchema>;

/** Commands the app sends; the page answers each (see bridge.ts). */
export const bridgeCommandSchemas = {
  aboutBridge: aboutBridgeDataSchema,
  trackResult: trackResultCommandSchema,
  shareSheet: shareSheetCommandSchema,
  /** Spec 002 §1 "foreground retagging": the app tagged again on coming back; a new tag context. */
  foregroundRetag: tagContextSchema,
  viewState: viewStateCommandSchema,
} as const;
export type BridgeCommandType = keyof typeof bridgeCommandSchemas;
export type BridgeCommandData<T extends BridgeCommandType> = v.InferOutput<(typeof bridgeCommandSchemas)[T]>;

// --- Page to app -------------------------------------------------------------------------------

/** A reply that carries nothing the page reads: whatever data it has is ignored. */
const ackSchema = v.pipe(
  v.unknown(),
  v.transform((): undefined => undefined),
);

/** Spec 002 §5: "Opening a web view needs both a url and a title." */
export const newWebViewRequestSchema = v.object({ url: httpUrl, title: text(300) });

/** Spec 002 §7 bridge request trackResult: show the app's own result screen for a track. */
export const trackResultRequestSchema = v.object({ trackId, key: v.optional(trackId) });

/** Android intents (or iOS universal links) to try in order; the app starts the first it can. */
export const startIntentsRequestSchema = v.object({
  intents: v.pipe(
    v.array(
      v.object({
        url: v.pipe(v.string(), v.maxLength(2048), v.regex(/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/, "a URI")),
        package: v.optional(
          v.pipe(v.string(), v.regex(/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/, "a package name")),
        ),
      }),
    ),
    v.minLength(1),
    v.maxLength(10),
  ),
});
export const startIntentsReplySchema = v.object({ started: v.boolean() });

export const isSchemeSupportedRequestSchema = v.object({
  scheme: v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9+.-]{0,31}$/, "a URI scheme"), v.toLowerCase()),
});
export const isSchemeSupportedReplySchema = v.object({ supported: v.boolean() });

/** Native tagging: the app records `sampleMs` of audio and answers with its signature. */
export const requestSigRequestSchema = v.object({
  partnerId: text(128),
  sampleMs: v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(20_000)),
});
/**
 * Optional on purpose: spec 002 §5 "A bridge signature response without data gives error 'invalid
 * response'" is the tag client's rule, so the bridge lets a data-less answer through to it.
 */
export const requestSigReplySchema = v.optional(
  v.object({
    signature: v.pipe(v.string(), v.minLength(4), v.maxLength(1_000_000), v.base64()),
    /** When the sample's recording started, epoch ms. */
    timestamp: finiteNumber,
    sampleMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  }),
);
export type SignatureSample = NonNullable<v.InferOutput<typeof requestSigReplySchema>>;

/** The page's half of the handshake; the app answers with an about-bridge message. */
export const aboutBridgeRequestSchema = v.object({ protocol: v.literal(bridgeProtocolVersion) });

/** Requests the page sends with a `responseType`, and the data of their replies. */
export const bridgeRequestSchemas = {
  aboutBridge: { data: aboutBridgeRequestSchema, reply: aboutBridgeDataSchema },
  newWebView: { data: newWebViewRequestSchema, reply: ackSchema },
  trackResult: { data: trackResultRequestSchema, reply: ackSchema },
  startIntents: { data: startIntentsRequestSchema, reply: startIntentsReplySchema },
  isSchemeSupported: { data: isSchemeSupportedRequestSchema, reply: isSchemeSupportedReplySchema },
  requestSig: { data: requestSigRequestSchema, reply: requestSigReplySchema },
} as const;
export type BridgeRequestType = keyof typeof bridgeRequestSchemas;
export type BridgeRequestData<T extends BridgeRequestType> = v.InferInput<
  (typeof bridgeRequestSchemas)[T]["data"]
>;
export type BridgeReplyData<T extends BridgeRequestType> = v.InferOutput<
  (typeof bridgeRequestSchemas)[T]["reply"]
>;

/**
 * Spec 000 §7: the statistics beacon is "a bridge message in the app". The parameters are the
 * beacon's query (rules/beacon-params.ts `BuiltBeacon.query`); `route` is its metric route.
 */
export const beaconMessageSchema = v.object({
  route: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9._-]{0,127}$/)),
  time: v.pipe(v.number(), v.integer(), v.minValue(0)),
  params: v.record(v.pipe(v.string(), v.regex(/^[A-Za-z_]{1,32}$/)), v.pipe(v.string(), v.maxLength(512))),
});
export type BeaconMessage = v.InferOutput<typeof beaconMessageSchema>;

/** Messages the page sends without a `responseType`: the app never answers them. */
export const bridgeNotificationSchemas = {
  beacon: beaconMessageSchema,
} as const;
export type BridgeNotificationType = keyof typeof bridgeNotificationSchemas;
export type BridgeNotificationData<T extends BridgeNotificationType> = v.InferInput<
  (typeof bridgeNotificationSchemas)[T]
>;
