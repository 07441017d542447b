import * as v from "valibot";
import { emailSchema } from "./account";
import { dayMs } from "./time";

/**
 * The privacy flows (spec 000 §1, §5, §8, §9; 001 §5, §9; decision 020): the data download, account
 * deletion and the data categories, as the site and the embedded origin's account service share
 * them. docs/decisions/020-privacy-flows.md says why each number is what it is.
 */

/**
 * How long a prepared data download can be fetched. A week: the mail may wait over a weekend or a
 * short trip, and a copy of everything we hold on someone should not lie around longer than that.
 * While it can be fetched, a new request is "already in process" (spec 000 §8).
 */
export const dataExportLifetimeMs = 7 * 24 * 60 * 60 * 1000;
/**
 * How long a request may stay `preparing`. Preparing takes well under a second; a request whose
 * worker died mid-way blocks a new one for this long, not for a week.
 */
export const dataExportPreparingMs = 10 * 60 * 1000;
/**
 * How long the record of a download (its dates, never its file) is kept after the file is deleted,
 * so that a late link says "expired" (410) rather than "not found"; then the record goes too.
 */
export const expiredExportRecordMs = 30 * 24 * 60 * 60 * 1000;
/** Spec 000 §9, 001 §9: "data download, deletion and data-category requests answered within 30 days". */
export const privacyAnswerDays = 30;
/** Spec 000 §9, 001 §9: "the transfer notice says deletion within 60 days". */
export const transferNoticeDeletionDays = 60;

/** Spec 000 §8 "Privacy: wrong account, expired download file, request already in process". */
export const privacyMessages = {
  wrongaccount: "You are signed in with a different account, sign in with the account you use in the app",
  expired: "This download file has expired, please request your data again",
  inprocess: "Your request is already in process",
  unknown: "There is no such download",
} as const;

/** Why a data download is refused: each has its own page and status. */
export const exportRefusals = ["wrongaccount", "expired", "inprocess", "unknown"] as const;
export type ExportRefusal = (typeof exportRefusals)[number];
export const exportRefusalStatus: Readonly<Record<ExportRefusal, 403 | 404 | 409 | 410>> = {
  wrongaccount: 403,
  expired: 410,
  inprocess: 409,
  unknown: 404,
};

/** A data download's id (in its link) and its token, 32 random bytes base64url (in the link only). */
export const dataExportIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/, "Invalid download id"));
export const dataExportTokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, "Invalid token"));

/** The site's page a data download's mail links to (without language prefix). */
export function dataExportPagePath(id: string): string {
  return `/privacy/download/${id}`;
}

/** What the site sends to ask for a data download: the language of the mail and its link. */
export const dataExportRequestSchema = v.object({
  locale: v.pipe(
    v.string(),
    v.maxLength(16),
    v.regex(/^[A-Za-z]{2}([-_][A-Za-z0-9]{2,4})?$/, "Unknown locale"),
  ),
});

/** The answer to a data download request: prepared, and mailed to the account's address. */
export const dataExportSentSchema = v.object({
  email: v.string(),
  expiresAt: v.pipe(v.number(), v.integer()),
});

/** A refused data download; `createdAt`/`expiresAt` are the request still in process. */
export const exportRefusalSchema = v.object({
  error: v.string(),
  reason: v.picklist(exportRefusals),
  message: v.string(),
  createdAt: v.optional(v.pipe(v.number(), v.integer())),
  expiresAt: v.optional(v.pipe(v.number(), v.integer())),
});
export type ExportRefusalAnswer = v.InferOutput<typeof exportRefusalSchema>;

/**
 * Account deletion: the account's own address, typed again by the person. The service compares it
 * with the session's, so that no request deletes an account by accident.
 */
export const accountDeletionSchema = v.object({ email: emailSchema });

/**
 * The data categories the privacy pages name (spec 000 §1 "data categories"), in the order the
 * data-categories page shows them: the one list that page draws, and that the data download and
 * deletion are checked against (tests/worker/privacy.test.ts walks it). Each names the data
 * download's section (`data.json` key) that holds the account's records of it, or null for what is
 * never tied to the account (identifications carry a visitor code, statistics a random browser id;
 * settings live in cookies).
 */
export const privacyDataCategories = {
  account: "account",
  sessions: "sessions",
  signInLinks: "signInRequests",
  tags: "tags",
  offerCodes: "offerCodes",
  verificationRequests: "verificationRequests",
  streamingConnections: "streamingConnections",
  surveyAnswers: "surveyAnswers",
  dataExports: "dataExports",
  identifications: null,
  statistics: null,
  settings: null,
} as const;
export type PrivacyDataCategory = keyof typeof privacyDataCategories;
export const privacyDataCategoryKeys = Object.keys(privacyDataCategories) as PrivacyDataCategory[];

/** Spec 001 §5 "data categories requests need an account": what is held about the signed-in person now. */
export const dataCategoriesSchema = v.object({
  email: v.string(),
  createdAt: v.pipe(v.number(), v.integer()),
  sessions: v.pipe(v.number(), v.integer(), v.minValue(0)),
  tags: v.pipe(v.number(), v.integer(), v.minValue(0)),
  hiddenTags: v.pipe(v.number(), v.integer(), v.minValue(0)),
  signInRequests: v.pipe(v.number(), v.integer(), v.minValue(0)),
  dataExports: v.pipe(v.number(), v.integer(), v.minValue(0)),
  offerCodes: v.pipe(v.number(), v.integer(), v.minValue(0)),
  verificationRequests: v.pipe(v.number(), v.integer(), v.minValue(0)),
  streamingConnections: v.pipe(v.number(), v.integer(), v.minValue(0)),
  surveyAnswers: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type DataCategories = v.InferOutput<typeof dataCategoriesSchema>;

/**
 * A moment as a person reads it in mail and on the pages: the date and time in UTC, named as such
 * (the service does not know the reader's time zone, and a mail is read anywhere).
 */
export function formatPrivacyDate(locale: string, epochMs: number): string {
  return new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  }).format(epochMs);
}

/**
 * A length of time in whole days, hours or minutes, the largest unit that divides it ("7 days",
 * "24 hours", "15 minutes"), worded and pluralized by the language itself (CLDR units).
 */
export function formatDuration(locale: string, ms: number): string {
  const units = [
    ["day", dayMs],
    ["hour", 60 * 60 * 1000],
    ["minute", 60 * 1000],
  ] as const;
  const [unit, size] = units.find(([, size]) => ms % size === 0) ?? units[2];
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(
    Math.round(ms / size),
  );
}

/** A ready data download, as its page shows it before offering the file. */
export const dataExportStatusSchema = v.object({
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
  createdAt: v.pipe(v.number(), v.integer()),
  expiresAt: v.pipe(v.number(), v.integer()),
});
export type DataExportStatus = v.InferOutput<typeof dataExportStatusSchema>;
