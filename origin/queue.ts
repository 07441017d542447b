import { storeBeaconBatch } from "./beacons";
import type { OriginEnv } from "./env";
import { foldIdentifications } from "./identifications";

/** What a consumer did with one batch: the log line below, which the bench reads (bench/live-numbers.ts). */
type StoredBatch = { events: number; malformed: number; statements: number; rowsWritten: number };

function logStored(what: string, stored: StoredBatch): void {
  console.log(
    `${what}: ${stored.events} events (${stored.malformed} malformed) in ${stored.statements} statements, ${stored.rowsWritten} rows written`,
  );
}

/**
 * The origin's queue consumer (the site Worker's wrangler.toml `[[queues.consumers]]` hands it each
 * batch): each queue's batch goes to the module that stores what it carries, in one batch of D1
 * statements.
 */
export async function queue(batch: MessageBatch, env: Pick<OriginEnv, "DB">): Promise<void> {
  switch (batch.queue) {
    case "tunewave-identifications":
      logStored("identifications", await foldIdentifications(batch, env.DB));
      break;
    case "tunewave-beacons":
      logStored("beacons", await storeBeaconBatch(batch, env.DB));
      break;
    default:
      // A queue this worker does not know: retried, so nothing is lost while a deploy catches up.
      console.error(`queue: no consumer for ${batch.queue}`);
      batch.retryAll();
  }
}
