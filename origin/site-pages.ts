import * as v from "valibot";
import { type CareersRole, careersRoleSchema } from "../edge/careers";
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
} from "../edge/forms";
import { randomToken, sha256 } from "./accounts";

// The D1 records of the site's own pages (migration 0008): survey answers, verification requests
// and the open roles. Each write checks its rate limit in the same statement as the insert, so
// concurrent requests cannot pass the limit together (as sign-in links do, origin/accounts.ts).

export type SurveyOutcome = "stored" | "answered" | "limited";

/** Stores a survey answer unless the visitor has answered already or the client is over its limit. */
export async function storeSurveyAnswer(
  db: D1Database,
  answer: v.InferOutput<typeof surveySubmissionSchema>,
  client: string,
  now: number,
): Promise<SurveyOutcome> {
  const visitorHash = await sha256(`visitor:${answer.visitor}`);
  const clientHash = await sha256(`client:${client}`);
  const inserted = await db
    .prepare(
      `INSERT INTO survey_answers (visitor_hash, client_hash, satisfaction, found, comment, lang, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
       WHERE (SELECT COUNT(*) FROM survey_answers WHERE client_hash = ?2 AND created_at > ?8) < ?9
       ON CONFLICT (visitor_hash) DO NOTHING`,
    )
    .bind(
      visitorHash,
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
  if (inserted.meta.changes === 1) return "stored";
  return (await surveyAnswerOf(db, answer.visitor)) ? "answered" : "limited";
}

/** The visitor's own answer, if they gave one. */
export async function surveyAnswerOf(
  db: D1Database,
  visitor: string,
): Promise<StoredSurveyAnswer | undefined> {
  const row = await db
    .prepare(
      "SELECT satisfaction, found, comment, created_at AS createdAt FROM survey_answers WHERE visitor_hash = ?",
    )
    .bind(await sha256(`visitor:${visitor}`))
    .first();
  return row ? v.parse(storedSurveyAnswerSchema, row) : undefined;
}

/** Stores a verification request unless the client is over its limit; its id, or "limited". */
export async function storeVerificationRequest(
  db: D1Database,
  request: v.InferOutput<typeof verificationSubmissionSchema>,
  client: string,
  now: number,
): Promise<{ id: string } | "limited"> {
  const id = randomToken().slice(0, 22);
  const clientHash = await sha256(`client:${client}`);
  const inserted = await db
    .prepare(
      `INSERT INTO verification_requests
         (id, artist_name, email, role, link, message, lang, client_hash, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
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
    )
    .run();
  return inserted.meta.changes === 1 ? { id } : "limited";
}

export async function verificationRequestOf(
  db: D1Database,
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
export async function openRoles(db: D1Database): Promise<CareersRole[]> {
  const { results } = await db
    .prepare(
      `SELECT id, title, team, location, summary, posted_on AS postedOn FROM careers_roles
       WHERE closed_on IS NULL ORDER BY posted_on DESC, id`,
    )
    .all();
  return results.map((row) => v.parse(careersRoleSchema, row));
}
