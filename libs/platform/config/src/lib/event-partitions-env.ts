import { BaseEnv } from './base-env';
import { EnvInt } from './env-decorators';

/**
 * The settings of daily error-event partition maintenance. rum-ingestion's env extends it, and
 * tools/scripts/rum-event-partitions.ts reads it on its own, so a cron pass and the app agree without the
 * script importing the app.
 */
export class EventPartitionsEnv extends BaseEnv {
  /** Days of error events kept: daily partitions whose whole day is older are dropped. */
  @EnvInt({ min: 1, max: 3650 })
  RUM_EVENT_RETENTION_DAYS = 30;

  /** Daily partitions created ahead of today. */
  @EnvInt({ min: 1, max: 60 })
  RUM_EVENT_PARTITIONS_AHEAD_DAYS = 3;
}
