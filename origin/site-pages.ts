import * as v from "valibot";
import type { Database } from "#origin/db/rows.ts";
import { type CareersRole, careersRoleSchema } from "#rules/careers.ts";
import {
  formRateWindowMs,
  type StoredSurveyAnswer,
  type StoredVerification,
  storedSurveyAnswerSchema,
  storedVerificationSchema,
  surveyAnswersPerClient,
  type surveySubmissionSchema,
  verificationRequestsPerClient,
  type verificationSubmissionSchema,
} from "#rules/forms.ts";
import { randomToken, sha256 } from "./accounts";

// The D1 records of the site's own pages (migration 0008): survey answers, verification requests
// and the open roles. Each write checks its rate limit in the same statement as the insert, so
// concurrent requests cannot pass the limit together (as sign-in links do, origin/accounts.ts).

export type SurveyOutcome = { outcome: "stored"; receipt: string } | { outcome: "answered" | "limited" };

const receiptHashOf = (receipt: string) => sha256(`receipt:${receipt}`);

/**
 * Stores a survey answer with a new receipt, unless the account (when signed in) has answered
 * already or the client is over its limit. The answer names the account it was sent from, so that
 * the account's data download holds it and its deletion removes it.
 */
export async function storeSurveyAnswer(
  db: Database,
  answer: v.InferOutput<typeof surveySubmissionSchema>,
  sender: { client: string; userId: string | null },
  now: number,
): Promise<SurveyOutcome> {
  const receipt = randomToken();
  const clientHash = await sha256(`client:${sender.client}`);
  const inserted = await db
    .prepare(
      `INSERT INTO survey_answers (receipt_hash, user_id, client_hash, satisfaction, found, comment, lang, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
       WHERE (SELECT COUNT(*) FROM survey_answers WHERE client_hash = ?3 AND created_at > ?9) < ?10
       ON CONFLICT DO NOTHING`,
    )
    .bind(
      await receiptHashOf(receipt),
      sender.userId,
      clientHash,
      answer.satisfaction,
      answer.found,
      answer.comment,
      answer.lang,
      now,
      now - formRateWindowMs,
      surveyAnswersPerClient,
    )
    .run();
  if (inserted.meta.changes === 1) return { outcome: "stored", receipt };
  const answered =
    sender.userId !== null &&
    (await db.prepare("SELECT 1 FROM survey_answers WHERE user_id = ?").bind(sender.userId).first());
  return { outcome: answered ? "answered" : "limited" };
}

/** The answer a receipt was handed out with, if any: the one way to read an answer back. */
export async function surveyAnswerOf(db: Database, receipt: string): Promise<StoredSurveyAnswer | undefined> {
  const row = await db
    .prepare(
      "SELECT satisfaction, found, comment, created_at AS createdAt FROM survey_answers WHERE receipt_hash = ?",
    )
    .bind(await receiptHashOf(receipt))
    .first();
  return row ? v.parse(storedSurveyAnswerSchema, row) : undefined;
}

/**
 * Stores a verification request unless the client is over its limit; its id, or "limited". Sent
 * signed in, it names the account: its data download holds it and its deletion removes it.
 */
export async function storeVerificationRequest(
  db: Database,
  request: v.InferOutput<typeof verificationSubmissionSchema>,
  sender: { client: string; userId: string | null },
  now: number,
): Promise<{ id: string } | "limited"> {
  const id = randomToken().slice(0, 22);
  const clientHash = await sha256(`client:${sender.client}`);
  const inserted = await db
    .prepare(
      `INSERT INTO verification_requests
         (id, artist_name, email, role, link, message, lang, client_hash, created_at, user_id)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?12
       WHERE (SELECT COUNT(*) FROM verification_requests WHERE client_hash = ?8 AND created_at > ?10) < ?11`,
    )
    .bind(
      id,
      request.artistName,
      request.email,
      request.role,
      request.link,
      request.message,
      request.lang,
      clientHash,
      now,
      now - formRateWindowMs,
      verificationRequestsPerClient,
      sender.userId,
    )
    .run();
  return inserted.meta.changes === 1 ? { id } : "limited";
}

export async function verificationRequestOf(
  db: Database,
  id: string,
): Promise<StoredVerification | undefined> {
  const row = await db
    .prepare(
      `SELECT id, artist_name AS artistName, email, role, link, message, status, created_at AS createdAt
       FROM verification_requests WHERE id = ?`,
    )
    .bind(id)
    .first();
  return row ? v.parse(storedVerificationSchema, row) : undefined;
}

/** The open roles, newest first. */
export async function openRoles(db: Database): Promise<CareersRole[]> {
  const { results } = await db
    .prepare(
      `SELECT id, title, team, location, summary, posted_on AS postedOn FROM careers_roles
       WHERE closed_on IS NULL ORDER BY posted_on DESC, id`,
    )
    .all();
  return results.map((row) => v.parse(careersRoleSchema, row));
}
