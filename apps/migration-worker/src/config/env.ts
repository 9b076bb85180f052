import { IsIn } from 'class-validator';
import { BaseEnv, EnvInt } from '@acme/platform-config';

export const MIGRATION_ROLES = ['all', 'api', 'worker'] as const;
export type MigrationRole = (typeof MIGRATION_ROLES)[number];

/** The only place this app reads process.env (see `loadEnvSource`), besides src/tracing.ts (OTEL_*). */
export class MigrationEnv extends BaseEnv {
  override PORT = 3004;

  /** api: public + operator routes, no jobs; worker: jobs + /health + /metrics; all: both. */
  @IsIn(MIGRATION_ROLES)
  MIGRATION_ROLE: MigrationRole = 'all';

  @EnvInt({ min: 1, max: 50000 })
  MIGRATION_BATCH_SIZE = 2000;

  @EnvInt({ min: 1 })
  MIGRATION_SLICE_SIZE = 25000;

  @EnvInt({ min: 1, max: 1000 })
  MIGRATION_MAX_SLICES = 64;

  @EnvInt({ min: 1, max: 64 })
  MIGRATION_WORKER_CONCURRENCY = 1;

  @EnvInt({ min: 1, max: 100 })
  MIGRATION_JOB_ATTEMPTS = 5;

  @EnvInt({ min: 0 })
  MIGRATION_JOB_BACKOFF_MS = 1000;

  /** BullMQ job lock; a killed worker's job is taken over once it expires (stalled-job recovery). */
  @EnvInt({ min: 1000 })
  MIGRATION_LOCK_DURATION_MS = 30000;

  @EnvInt({ min: 500 })
  MIGRATION_STALLED_INTERVAL_MS = 30000;

  /** Times a job may be recovered from a dead worker before it counts as failed. */
  @EnvInt({ min: 0 })
  MIGRATION_MAX_STALLED_COUNT = 20;

  /** How often a worker re-aligns the queue with Postgres (lost jobs, exhausted jobs, finished slices). */
  @EnvInt({ min: 200 })
  MIGRATION_RECONCILE_INTERVAL_MS = 15000;

  /** Public API requests per second per workspace (token bucket, burst = 2x); 0 switches the limit off. */
  @EnvInt({ min: 0 })
  MIGRATION_RATE_LIMIT_PER_SECOND = 100;
}

export const loadEnvSource = (): Record<string, string | undefined> => process.env;
