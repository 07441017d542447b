import { createOrigin } from "#origin/index.ts";

/**
 * The isolate's embedded origin (origin/index.ts, its one face): the services proxy's upstream when
 * no remote one is configured, and the consumer of the site's queues and Cron Triggers either way.
 */
export const embeddedOrigin = createOrigin();
