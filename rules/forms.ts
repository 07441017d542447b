import * as v from "valibot";
import { isValidEmail } from "./account";
import { cookieMaxAgeSeconds, parseCookieHeader, serializeCookie } from "./cookies";
import { languageKeys } from "./languages";

/**
 * The site's two forms that store what a visitor sends (decision 024): the satisfaction survey
 * (spec 000 §1) and artist-account verification (spec 000 §2 page type `verify`). The page's
 * action and the embedded origin parse with the same schemas; each message is the key of its
 * localized text (`forms:errors.*`). docs/decisions/024-remaining-pages.md says why the numbers.
 */

/** Survey answers one client (IP address) may send in `formRateWindowMs`: a household, not a script. */
export const surveyAnswersPerClient = 10;
/** Verification requests one client may send in `formRateWindowMs`: a manager with a few artists. */
export const verificationRequestsPerClient = 5;
export const formRateWindowMs = 60 * 60 * 1000;
/** Longest free text (a comment, a message): a paragraph, not a document. */
export const freeTextMax = 1000;

export const satisfactionScores = ["1", "2", "3", "4", "5"] as const;
/** "Did Tunewave find the songs you asked it about?" */
export const foundAnswers = ["always", "mostly", "rarely"] as const;
/** Who asks for an artist's verification. */
export const requesterRoles = ["artist", "manager", "label"] as const;

/** Keys of `forms:errors.*`: what is wrong with one field. */
export type FieldError = "required" | "choose" | "tooLong" | "email" | "link";

const choice = <const T extends readonly string[]>(options: T) =>
  v.picklist(options, "choose" satisfies FieldError);

const freeText = v.pipe(
  v.optional(v.string(), ""),
  v.trim(),
  v.maxLength(freeTextMax, "tooLong" satisfies FieldError),
);

const requiredText = (max: number) =>
  v.pipe(
    v.string("required" satisfies FieldError),
    v.trim(),
    v.minLength(1, "required" satisfies FieldError),
    v.maxLength(max, "tooLong" satisfies FieldError),
  );

/** What a survey answer holds. */
export const surveyAnswerSchema = v.object({
  satisfaction: v.pipe(choice(satisfactionScores), v.transform(Number)),
  found: choice(foundAnswers),
  comment: freeText,
});
export type SurveyAnswer = v.InferOutput<typeof surveyAnswerSchema>;

/** An https (or http) address of the artist's official page: where we check who they are. */
const linkSchema = v.pipe(
  v.string("required" satisfies FieldError),
  v.trim(),
  v.minLength(1, "required" satisfies FieldError),
  v.maxLength(300, "tooLong" satisfies FieldError),
  v.check(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    "link" satisfies FieldError,
  ),
);

/** What a verification request holds. */
export const verificationRequestSchema = v.object({
  artistName: requiredText(100),
  email: v.pipe(
    v.string("required" satisfies FieldError),
    v.trim(),
    v.minLength(1, "required" satisfies FieldError),
    v.check(isValidEmail, "email" satisfies FieldError),
    v.toLowerCase(),
  ),
  role: choice(requesterRoles),
  link: linkSchema,
  message: freeText,
});
export type VerificationRequest = v.InferOutput<typeof verificationRequestSchema>;

const fieldErrorKeys: ReadonlySet<string> = new Set<FieldError>([
  "required",
  "choose",
  "tooLong",
  "email",
  "link",
]);

/**
 * Field by field, the first thing wrong, for the form to show beside each field. A field left out
 * altogether (valibot's own "Invalid key" message) is a required one.
 */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  for (const issue of issues) {
    const field = issue.path?.[0]?.key;
    if (typeof field !== "string" || field in errors) continue;
    errors[field] = fieldErrorKeys.has(issue.message) ? (issue.message as FieldError) : "required";
  }
  return errors;
}

/**
 * The body the site sends the origin with a survey answer: the answer and the language. Never who
 * sent it: the origin ties it to the account of the session it reads itself, and hands back a
 * receipt (decision 024).
 */
export const surveySubmissionSchema = v.object({
  ...surveyAnswerSchema.entries,
  satisfaction: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5)),
  lang: v.picklist(languageKeys),
});

/**
 * A survey answer's receipt: 32 random bytes, base64url, handed to the browser that answered and
 * kept there in an HttpOnly cookie. Its answer is read back with it and nothing else: never by a
 * browser id, which the page's statistics carry and anyone who saw them could name.
 */
export const surveyReceiptSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, "Invalid receipt"));

/** The cookie that keeps the receipt: the answering browser's alone (HttpOnly), for the cookie lifetime. */
export const surveyReceiptCookieName = "surveyReceipt";

export function surveyReceiptCookie(receipt: string, secure: boolean): string {
  return serializeCookie(surveyReceiptCookieName, receipt, {
    maxAge: cookieMaxAgeSeconds,
    sameSite: "Lax",
    secure,
    httpOnly: true,
  });
}

/** The receipt the request's cookie holds, when it holds a well-formed one. */
export function surveyReceiptOf(cookieHeader: string | null): string | undefined {
  const parsed = v.safeParse(
    surveyReceiptSchema,
    parseCookieHeader(cookieHeader).get(surveyReceiptCookieName),
  );
  return parsed.success ? parsed.output : undefined;
}

export const verificationSubmissionSchema = v.object({
  ...verificationRequestSchema.entries,
  lang: v.picklist(languageKeys),
});

/** A stored survey answer, as the origin gives it back to its visitor. */
export const storedSurveyAnswerSchema = v.object({
  satisfaction: v.number(),
  found: v.picklist(foundAnswers),
  comment: v.string(),
  createdAt: v.number(),
});
export type StoredSurveyAnswer = v.InferOutput<typeof storedSurveyAnswerSchema>;

/** A verification request's id (in its confirmation page's address): 16 random bytes, base64url. */
export const verificationIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/, "Invalid request id"));

/** A stored verification request, as its confirmation page shows it. */
export const storedVerificationSchema = v.object({
  id: verificationIdSchema,
  artistName: v.string(),
  email: v.string(),
  role: v.picklist(requesterRoles),
  link: v.string(),
  message: v.string(),
  status: v.picklist(["received"]),
  createdAt: v.number(),
});
export type StoredVerification = v.InferOutput<typeof storedVerificationSchema>;

/** A form's fields as the visitor typed them (cut short), to parse and to fill the form again. */
export function typedFields<const K extends string>(form: FormData, names: readonly K[]): Record<K, string> {
  return Object.fromEntries(
    names.map((name) => [name, String(form.get(name) ?? "").slice(0, 2 * freeTextMax)]),
  ) as Record<K, string>;
}
