import * as v from "valibot";
import type { Database } from "#origin/db/rows.ts";
import { guidSchema } from "#rules/cookies.ts";
import { asksNotToBeTracked } from "#rules/global-privacy-control.ts";
import {
  edgePlaceHeaders,
  eventRetentionDays,
  type IdentificationEvent,
  identificationEventSchema,
  unknownCountry,
  vouchedVisitorHeader,
} from "#rules/schemas/identification.ts";
import { dayMs } from "#rules/time.ts";
import { addressHashOf, utcDayOf, visitorHashOf } from "#rules/visitor-hash.ts";
import { randomToken } from "./accounts";
import type { OriginContext } from "./env";
import { clientAddressOf } from "./http";

// Identifications counted live (docs/decisions/032-live-numbers.md): every successful match and
// every new tag sends one event to the identifications queue, and the queue's consumer folds a
// batch of them into the counters (migrations 0016 and 0022) in one D1 batch of a few statements.

/** Cities by (country, name) as the edge names them: a bounded per-isolate memo of one D1 read each. */
const cityIds = new Map<string, number>();
const maxCityIds = 2000;

async function cityIdOf(db: Database, country: string, encodedCity: string | undefined): Promise<number> {
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

function dailySalt(db: Database, day: string): Promise<string> {
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

/** A web match's recording, by which the same one sent again is told apart (rules/schemas/identification.ts). */
export type MatchedRecording = { offsetMs: number; sketch: number[] };

/**
 * Sends the identification event of a successful match or a new tag of `trackKey`, after the
 * answer when the request has a waitUntil (a browser's call), else before it. Who and where come
 * from the edge alone (worker/steps/services.ts): the country and city `request.cf` gave, never a
 * body's, and the webId it vouched for, never a cookie as the client sent it. A failure to send is
 * logged: the answer is the match either way.
 */
export async function recordIdentification(
  c: OriginContext,
  identification: { trackKey: number; recording?: MatchedRecording },
): Promise<void> {
  const at = Date.now();
  const day = utcDayOf(at);
  const edgeCountry = c.req.header(edgePlaceHeaders.country)?.toUpperCase();
  const country = edgeCountry && /^[A-Z]{2}$/.test(edgeCountry) ? edgeCountry : unknownCountry;
  const city = c.req.header(edgePlaceHeaders.city);
  const address = clientAddressOf(c);
  const salt = () => dailySalt(c.var.db, day);
  const vouched = v.safeParse(guidSchema, c.req.header(vouchedVisitorHeader));
  const visitor = {
    webId: vouched.success ? vouched.output : undefined,
    globalPrivacyControl: asksNotToBeTracked({ header: c.req.header("sec-gpc") }),
    address,
    userAgent: c.req.header("user-agent") ?? "",
    day,
    dailySalt: salt,
  };
  const send = (async () => {
    const event: IdentificationEvent = {
      id: crypto.randomUUID(),
      trackKey: identification.trackKey,
      country,
      cityId: await cityIdOf(c.var.db, country, city),
      day,
      visitorHash: await visitorHashOf(visitor),
      addressHash: await addressHashOf({ address, day, dailySalt: salt }),
      at,
      ...(identification.recording ? { recording: identification.recording } : {}),
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
 * At most this many visitors of one client address count toward one track on one day (in charts
 * and in the tag count), however many identifiers and signatures the address brings. Five: fifty
 * people in an office who identify the same song count as five, which still moves a small
 * country's chart a little, while one address alone can lift a song by at most 5 × 1/40 of its
 * chart leader's total (chart-scores.ts): never from the lower half to the top 10.
 */
export const visitorsPerAddressPerTrackPerDay = 5;

/**
 * A web match is the same recording as an earlier one of the day when it matched the same track
 * within this many ms of the same place in it and their sketches (signature/sketch.ts) agree in at
 * least `replaySketchAgreement` of 16 buckets. The offset narrows the comparison to the few events
 * of a track near that moment (an index); the sketch tells a replay from another person's
 * recording of the same moment. Measured on tests/unit/signature-sketch.test.ts's music: a peak
 * edited or removed agrees in 15–16 buckets, one peak in twenty removed in 13–16; another noise
 * over the same moment in 2–6, and two near-clean recordings started on the same sample in 9–11.
 */
export const replayOffsetToleranceMs = 250;
export const replaySketchAgreement = 13;

/**
 * The statements that fold one batch's events into the counters, whatever their number: the
 * events travel as one JSON parameter (json_each). Events already stored (a redelivery) are
 * ignored, and what is counted is what this batch stored: its rows carry `batch`. In order: the
 * events; replays marked; the chart visits, one a visitor, track and day, no more than the cap an
 * address; the day's counters and the tag counts from those visits; the retention deletes.
 */
function foldStatements(db: Database, batchId: string, events: readonly IdentificationEvent[], now: number) {
  const oldest = oldestCountedDay(now);
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO identification_events
           (id, track_key, country, city_id, day, visitor_hash, address_hash, offset_ms, sketch, at, batch)
         SELECT json_extract(value, '$.id'), json_extract(value, '$.trackKey'), json_extract(value, '$.country'),
           json_extract(value, '$.cityId'), json_extract(value, '$.day'), json_extract(value, '$.visitorHash'),
           COALESCE(json_extract(value, '$.addressHash'), ''), json_extract(value, '$.recording.offsetMs'),
           json_extract(value, '$.recording.sketch'), json_extract(value, '$.at'), ?1
         FROM json_each(?2) WHERE json_extract(value, '$.day') >= ?3`,
      )
      .bind(batchId, JSON.stringify(events), oldest),
    // The same recording again: an earlier event of the day (a stored one, or one before it in
    // this batch) of the same track, near the same offset, with a sketch that agrees.
    db
      .prepare(
        `UPDATE identification_events SET replay = 1
         WHERE batch = ?1 AND offset_ms IS NOT NULL AND EXISTS (
           SELECT 1 FROM identification_events AS earlier
           WHERE earlier.day = identification_events.day AND earlier.track_key = identification_events.track_key
             AND earlier.offset_ms BETWEEN identification_events.offset_ms - ?2 AND identification_events.offset_ms + ?2
             AND (earlier.batch <> ?1 OR earlier.at < identification_events.at
               OR (earlier.at = identification_events.at AND earlier.id < identification_events.id))
             AND (SELECT COUNT(*) FROM json_each(earlier.sketch) AS a JOIN json_each(identification_events.sketch) AS b
                  ON a.key = b.key AND a.value = b.value AND a.value >= 0) >= ?3)`,
      )
      .bind(batchId, replayOffsetToleranceMs, replaySketchAgreement),
    // A visitor's first identification of a track on a day, at its place, unless the visitor's
    // address already has the cap of visitors for that track and day; later ones are ignored.
    db
      .prepare(
        `INSERT OR IGNORE INTO chart_visits (day, track_key, visitor_hash, address_hash, country, city_id, batch)
         SELECT day, track_key, visitor_hash, address_hash, country, city_id, ?1 FROM (
           SELECT firsts.*, ROW_NUMBER() OVER (
             PARTITION BY day, track_key, address_hash ORDER BY at, visitor_hash) AS nth
           FROM (
             SELECT day, track_key, visitor_hash, address_hash, country, city_id, MIN(at) AS at
             FROM identification_events AS event
             WHERE batch = ?1 AND replay = 0 AND NOT EXISTS (
               SELECT 1 FROM chart_visits AS visit WHERE visit.day = event.day
                 AND visit.track_key = event.track_key AND visit.visitor_hash = event.visitor_hash)
             GROUP BY day, track_key, visitor_hash
           ) AS firsts
         ) AS ranked
         WHERE nth + (SELECT COUNT(*) FROM chart_visits AS visit WHERE visit.day = ranked.day
           AND visit.track_key = ranked.track_key AND visit.address_hash = ranked.address_hash) <= ?2`,
      )
      .bind(batchId, visitorsPerAddressPerTrackPerDay),
    db
      .prepare(
        `INSERT INTO daily_identifications (day, track_key, country, city_id, identifications, visitors)
         SELECT day, track_key, country, city_id, SUM(identifications), SUM(visitors) FROM (
           SELECT day, track_key, country, city_id, 1 AS identifications, 0 AS visitors
           FROM identification_events WHERE batch = ?1 AND replay = 0
           UNION ALL
           SELECT day, track_key, country, city_id, 0, 1 FROM chart_visits WHERE batch = ?1
         ) GROUP BY day, track_key, country, city_id
         ON CONFLICT (day, track_key, country, city_id) DO UPDATE SET
           identifications = identifications + excluded.identifications,
           visitors = visitors + excluded.visitors`,
      )
      .bind(batchId),
    // The tag count counts what the charts count: a visitor once a track and day, within the cap.
    db
      .prepare(
        `INSERT INTO live_tag_counts (track_key, total)
         SELECT track_key, COUNT(*) FROM chart_visits WHERE batch = ?1 GROUP BY track_key
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
  db: Database,
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
