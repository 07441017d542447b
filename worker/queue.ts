import { storeBeaconBatch } from "../origin/beacons";
import type { Env } from "../rules/env";

/**
 * The worker's queue consumer (wrangler.toml `[[queues.consumers]]`): each queue's batch goes to
 * the module that stores what it carries, in one batch of D1 statements.
 */
export async function queue(batch: MessageBatch, env: Env): Promise<void> {
  switch (batch.queue) {
    case "tunewave-beacons":
      return storeBeaconBatch(batch, env.DB);
    default:
      // A queue this worker does not know: retried, so nothing is lost while a deploy catches up.
      console.error(`queue: no consumer for ${batch.queue}`);
      batch.retryAll();
  }
}
