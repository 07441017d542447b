import { foldIdentifications } from "../origin/identifications";
import type { Env } from "../rules/env";

/**
 * The worker's queue consumer (wrangler.toml `[[queues.consumers]]`): each queue's batch goes to
 * the module that stores what it carries, in one batch of D1 statements.
 */
export async function queue(batch: MessageBatch, env: Env): Promise<void> {
  switch (batch.queue) {
    case "tunewave-identifications": {
      const folded = await foldIdentifications(batch, env.DB);
      console.log(
        `identifications: ${folded.events} events (${folded.malformed} malformed) in ${folded.statements} statements, ${folded.rowsWritten} rows written`,
      );
      break;
    }
    default:
      // A queue this worker does not know: retried, so nothing is lost while a deploy catches up.
      console.error(`queue: no consumer for ${batch.queue}`);
      batch.retryAll();
  }
}
