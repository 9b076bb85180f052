import { EnvInt, EventPartitionsEnv } from '@acme/platform-config';

/**
 * The only place this app reads process.env (see `loadEnvSource`), besides src/tracing.ts (OTEL_*). Limits are
 * per account, per route; the partition-maintenance settings come from `EventPartitionsEnv`, which the cron script
 * reads too.
 */
export class RumEnv extends EventPartitionsEnv {
  override PORT = 3003;

  /** Ingest quota per application, events per second (a batch costs its events; README "Ingest quota"). */
  @EnvInt({ min: 1000 })
  RUM_INGEST_EVENTS_PER_SECOND = 5000;

  /** Ingest quota per application, request-body bytes per second (at least one largest batch). */
  @EnvInt({ min: 5 * 1024 * 1024 })
  RUM_INGEST_BYTES_PER_SECOND = 20 * 1024 * 1024;

  /** rules/create, and each other write route (update, delete, enable, disable) on its own counter. */
  @EnvInt({ min: 1 })
  RUM_CREATE_LIMIT_PER_SECOND = 20;

  @EnvInt({ min: 1 })
  RUM_CREATE_LIMIT_PER_MINUTE = 300;

  /** rules/history/list, and each other read route (info, list) on its own counter. */
  @EnvInt({ min: 1 })
  RUM_HISTORY_LIMIT_PER_SECOND = 50;

  @EnvInt({ min: 1 })
  RUM_HISTORY_LIMIT_PER_MINUTE = 1000;
}

export const loadEnvSource = (): Record<string, string | undefined> => process.env;
