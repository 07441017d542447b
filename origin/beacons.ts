import * as v from "valibot";
import type { Database } from "#origin/db/rows.ts";

/**
 * Beacons and logs (spec 000 §7 sinks) travel through the beacons queue: the sink validates and
 * sends one message, the queue consumer stores a whole batch in one D1 batch (decision 032).
 */

/** Days a raw beacon row is kept (by its UTC day): a week of logs to debug with; the daily counts stay. */
export const beaconRetentionDays = 7;

/** The largest log body the sink takes; beyond it the request is refused. */
export const logBodyMaxBytes = 8_192;

/** A metric route or log tag. */
export const beaconRouteSchema = v.pipe(v.string(), v.regex(/^[\w.-]{1,100}$/, "Invalid metric route"));

/** One message on the beacons queue; `id` makes a redelivered message stored once. */
export const beaconMessageSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  kind: v.picklist(["metrics", "log"]),
  route: beaconRouteSchema,
  // The worker refuses a URL over 4 096 characters (worker/refusals.ts), so its query is shorter.
  query: v.pipe(v.string(), v.maxLength(4_096)),
  body: v.nullable(v.pipe(v.string(), v.maxLength(logBodyMaxBytes))),
  /** When the sink received it, ms since the epoch: its day decides retention. */
  receivedAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

export type BeaconMessage = v.InferOutput<typeof beaconMessageSchema>;

/** The message for one beacon the sink accepted. */
export function beaconMessage(
  beacon: Omit<BeaconMessage, "id" | "receivedAt">,
  receivedAt: number,
): BeaconMessage {
  return { id: crypto.randomUUID(), ...beacon, receivedAt };
}

/**
 * Stores one queue batch: its valid messages in three statements whatever the batch size (the
 * rows as one JSON parameter), each message once however often it is delivered. A malformed
 * message is logged and acknowledged (retrying cannot mend it); a D1 failure retries the batch.
 */
export async function storeBeaconBatch(
  batch: MessageBatch,
  db: Database,
  now = Date.now(),
): Promise<{ events: number; malformed: number; statements: number; rowsWritten: number }> {
  const rows: BeaconMessage[] = [];
  for (const message of batch.messages) {
    const parsed = v.safeParse(beaconMessageSchema, message.body);
    if (parsed.success) rows.push(parsed.output);
    else console.error(`beacons: dropped malformed message ${message.id}: ${v.summarize(parsed.issues)}`);
  }
  const summary = {
    events: rows.length,
    malformed: batch.messages.length - rows.length,
    statements: 0,
    rowsWritten: 0,
  };
  if (rows.length > 0) {
    const stored = crypto.randomUUID();
    try {
      const results = await db.batch([
        // ON CONFLICT needs a WHERE in an INSERT … SELECT (SQLite's upsert parsing).
        db
          .prepare(
            `INSERT INTO beacons (id, kind, route, query, body, received_at, day, batch)
           SELECT value ->> 'id', value ->> 'kind', value ->> 'route', value ->> 'query', value ->> 'body',
             value ->> 'receivedAt', strftime('%Y-%m-%d', (value ->> 'receivedAt') / 1000, 'unixepoch'), ?2
           FROM json_each(?1) WHERE true
           ON CONFLICT (id) DO NOTHING`,
          )
          .bind(JSON.stringify(rows), stored),
        // Only the rows this delivery stored count: a redelivered message found its id above.
        db
          .prepare(
            `INSERT INTO daily_beacons (day, kind, route, count)
           SELECT day, kind, route, COUNT(*) FROM beacons WHERE batch = ? GROUP BY day, kind, route
           ON CONFLICT (day, kind, route) DO UPDATE SET count = count + excluded.count`,
          )
          .bind(stored),
        db
          .prepare("DELETE FROM beacons WHERE day < strftime('%Y-%m-%d', ? / 1000, 'unixepoch', ?)")
          .bind(now, `-${beaconRetentionDays} days`),
      ]);
      summary.statements = results.length;
      summary.rowsWritten = results.reduce((sum, result) => sum + (result.meta.rows_written ?? 0), 0);
    } catch (error) {
      console.error(`beacons: batch of ${rows.length} not stored, retried: ${String(error)}`);
      batch.retryAll();
      return summary;
    }
  }
  batch.ackAll();
  return summary;
}

/** How many beacons of each kind and route were stored from `since` (ms since the epoch) on. */
export async function receivedBeaconCounts(
  db: Database,
  since: number,
): Promise<{ kind: string; route: string; n: number }[]> {
  const { results } = await db
    .prepare("SELECT kind, route, COUNT(*) AS n FROM beacons WHERE received_at >= ? GROUP BY kind, route")
    .bind(since)
    .all<{ kind: string; route: string; n: number }>();
  return results;
}
