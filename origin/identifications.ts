import * as v from "valibot";
import { readCookies } from "../rules/cookies";
import { asksNotToBeTracked } from "../rules/global-privacy-control";
import {
  edgePlaceHeaders,
  type IdentificationEvent,
  identificationEventSchema,
  unknownCountry,
} from "../rules/schemas/identification";
import { utcDayOf, visitorHashOf } from "../rules/visitor-hash";
import { randomToken } from "./accounts";
import type { OriginContext } from "./env";

// Identifications counted live (issue 43, docs/decisions/032-live-numbers.md): every successful
// match and every new tag sends one event to the identifications queue, and the queue's consumer
// folds a batch of them into the counters (migration 0016) in one D1 batch of a few statements.

const dayMs = 86_400_000;

/**
 * Days of events and chart visits kept: today and the two before. Queues redeliver within hours
 * (10 retries with backoff), so an event is always still there when its copy comes back; an event
 * of an older day is dropped, since it might have been counted once already.
 */
export const eventRetentionDays = 3;

/** Cities by (country, name) as the edge names them: a bounded per-isolate memo of one D1 read each. */
const cityIds = new Map<string, number>();
const maxCityIds = 2000;

async function cityIdOf(db: D1Database, country: string, encodedCity: string | undefined): Promise<number> {
  if (!encodedCity) return 0;
  let city: string;
  try {
    city = decodeURIComponent(encodedCity);
  } catch {
    return 0;
  }
  const key = `${country}\n${city}`;
  const known = cityIds.get(key);
  if (known !== undefined) return known;
  const row = await db
    .prepare("SELECT id FROM cities WHERE country = ? AND name = ? COLLATE NOCASE")
    .bind(country, city)
    .first();
  const id = v.parse(v.nullable(v.object({ id: v.number() })), row)?.id ?? 0;
  if (cityIds.size >= maxCityIds) cityIds.clear();
  cityIds.set(key, id);
  return id;
}

/** Today's salt, made by the first isolate that needs it and read by the others; older ones are deleted. */
let saltOfDay: { day: string; salt: Promise<string> } | undefined;

function dailySalt(db: D1Database, day: string): Promise<string> {
  if (saltOfDay?.day === day) return saltOfDay.salt;
  const salt = db
    .batch([
      db.prepare("DELETE FROM daily_salts WHERE day < ?").bind(day),
      db
        .prepare("INSERT INTO daily_salts (day, salt) VALUES (?, ?) ON CONFLICT (day) DO NOTHING")
        .bind(day, randomToken()),
      db.prepare("SELECT salt FROM daily_salts WHERE day = ?").bind(day),
    ])
    .then((results) => {
      const [row] = v.parse(v.array(v.object({ salt: v.string() })), results[2]?.results);
      if (!row) throw new Error("no salt stored for the day");
      return row.salt;
    });
  saltOfDay = { day, salt };
  salt.catch(() => {
    if (saltOfDay?.salt === salt) saltOfDay = undefined;
  });
  return salt;
}

/**
 * Sends the identification event of a successful match or a new tag of `trackKey`, after the
 * answer when the request has a waitUntil (a browser's call), else before it. `country` is the
 * one the request names (the web match's); else the edge's, else unknown. A failure to send is
 * logged: the answer is the match either way.
 */
export async function recordIdentification(
  c: OriginContext,
  identification: { trackKey: number; country: string | undefined },
): Promise<void> {
  const at = Date.now();
  const day = utcDayOf(at);
  const edgeCountry = c.req.header(edgePlaceHeaders.country)?.toUpperCase();
  const country =
    identification.country ?? (edgeCountry && /^[A-Z]{2}$/.test(edgeCountry) ? edgeCountry : unknownCountry);
  const city = c.req.header(edgePlaceHeaders.city);
  const visitor = {
    webId: readCookies(c.req.header("cookie")).webId,
    globalPrivacyControl: asksNotToBeTracked({ header: c.req.header("sec-gpc") }),
    address: c.req.header("cf-connecting-ip") ?? "",
    userAgent: c.req.header("user-agent") ?? "",
    day,
    dailySalt: () => dailySalt(c.env.DB, day),
  };
  const send = (async () => {
    const event: IdentificationEvent = {
      id: crypto.randomUUID(),
      trackKey: identification.trackKey,
      country,
      cityId: await cityIdOf(c.env.DB, country, city),
      day,
      visitorHash: await visitorHashOf(visitor),
      at,
    };
    await c.env.IDENTIFICATIONS.send(event, { contentType: "json" });
  })().catch((error: unknown) => {
    console.error("identifications: the event was not sent:", error);
  });
  try {
    c.executionCtx.waitUntil(send);
  } catch {
    // No execution context (a call from a loader, or a test's): the event is sent before the answer.
    await send;
  }
}

/** Events of this day or later are counted; older ones are past the retention window. */
function oldestCountedDay(now: number): string {
  return utcDayOf(now - (eventRetentionDays - 1) * dayMs);
}

/**
 * The statements that fold one batch's events into the counters, whatever their number: the
 * events travel as one JSON parameter (json_each). Events already stored (a redelivery) are
 * ignored, and what is counted is what this batch stored: its rows carry `batch`.
 */
function foldStatements(
  db: D1Database,
  batchId: string,
  events: readonly IdentificationEvent[],
  now: number,
) {
  const oldest = oldestCountedDay(now);
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO identification_events (id, track_key, country, city_id, day, visitor_hash, at, batch)
         SELECT json_extract(value, '$.id'), json_extract(value, '$.trackKey'), json_extract(value, '$.country'),
           json_extract(value, '$.cityId'), json_extract(value, '$.day'), json_extract(value, '$.visitorHash'),
           json_extract(value, '$.at'), ?1
         FROM json_each(?2) WHERE json_extract(value, '$.day') >= ?3`,
      )
      .bind(batchId, JSON.stringify(events), oldest),
    // A visitor's first identification of a track on a day, at its place; later ones are ignored.
    db
      .prepare(
        `INSERT OR IGNORE INTO chart_visits (day, track_key, visitor_hash, country, city_id, batch)
         SELECT day, track_key, visitor_hash, country, city_id, ?1 FROM identification_events
         WHERE batch = ?1 ORDER BY at, id`,
      )
      .bind(batchId),
    db
      .prepare(
        `INSERT INTO daily_identifications (day, track_key, country, city_id, identifications, visitors)
         SELECT day, track_key, country, city_id, SUM(identifications), SUM(visitors) FROM (
           SELECT day, track_key, country, city_id, 1 AS identifications, 0 AS visitors
           FROM identification_events WHERE batch = ?1
           UNION ALL
           SELECT day, track_key, country, city_id, 0, 1 FROM chart_visits WHERE batch = ?1
         ) GROUP BY day, track_key, country, city_id
         ON CONFLICT (day, track_key, country, city_id) DO UPDATE SET
           identifications = identifications + excluded.identifications,
           visitors = visitors + excluded.visitors`,
      )
      .bind(batchId),
    db
      .prepare(
        `INSERT INTO live_tag_counts (track_key, total)
         SELECT track_key, COUNT(*) FROM identification_events WHERE batch = ?1 GROUP BY track_key
         ON CONFLICT (track_key) DO UPDATE SET total = total + excluded.total`,
      )
      .bind(batchId),
    db.prepare("DELETE FROM identification_events WHERE day < ?").bind(oldest),
    db.prepare("DELETE FROM chart_visits WHERE day < ?").bind(oldest),
    // A salt outlives its day by at most one batch, even on a day no visitor needed one.
    db.prepare("DELETE FROM daily_salts WHERE day < ?").bind(utcDayOf(now)),
  ];
}

/** What one fold did: for the log line and the measures (statements and rows written per event). */
export type FoldSummary = { events: number; malformed: number; statements: number; rowsWritten: number };

/**
 * The identifications queue's consumer: validates each message (a malformed one is acked and
 * logged: no retry would make it valid), then folds the valid ones in one D1 batch, a transaction.
 * When D1 fails, the valid ones are retried: delivery is at least once, and ids count them once.
 */
export async function foldIdentifications(
  batch: MessageBatch,
  db: D1Database,
  now = Date.now(),
): Promise<FoldSummary> {
  const valid: { message: Message; event: IdentificationEvent }[] = [];
  let malformed = 0;
  for (const message of batch.messages) {
    const parsed = v.safeParse(identificationEventSchema, message.body);
    if (parsed.success) {
      valid.push({ message, event: parsed.output });
    } else {
      malformed += 1;
      console.warn(`identifications: message ${message.id} dropped: ${parsed.issues[0]?.message}`);
      message.ack();
    }
  }
  if (valid.length === 0) return { events: 0, malformed, statements: 0, rowsWritten: 0 };
  const statements = foldStatements(
    db,
    crypto.randomUUID(),
    valid.map(({ event }) => event),
    now,
  );
  try {
    const results = await db.batch(statements);
    const rowsWritten = results.reduce((sum, result) => sum + (result.meta.rows_written ?? 0), 0);
    for (const { message } of valid) message.ack();
    return { events: valid.length, malformed, statements: statements.length, rowsWritten };
  } catch (error) {
    console.error("identifications: the batch was not stored, retried:", error);
    for (const { message } of valid) message.retry();
    return { events: valid.length, malformed, statements: statements.length, rowsWritten: 0 };
  }
}
