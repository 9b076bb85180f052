import { Module } from '@nestjs/common';
import { EventPartitionMaintenance, EventPartitionSettings } from '@acme/rum';
import { RumEnv } from '../config/env';
import { EventPartitionScheduler } from './event-partition.scheduler';

/** Creates ahead and drops expired partitions of the error events table, on a timer. */
@Module({
  providers: [
    {
      provide: EventPartitionSettings,
      inject: [RumEnv],
      useFactory: (env: RumEnv): EventPartitionSettings => ({
        retentionDays: env.RUM_EVENT_RETENTION_DAYS,
        aheadDays: env.RUM_EVENT_PARTITIONS_AHEAD_DAYS,
      }),
    },
    EventPartitionMaintenance,
    EventPartitionScheduler,
  ],
})
export class MaintenanceModule {}
