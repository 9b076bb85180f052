import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsRegistry } from '@acme/platform-observability';
import { MIGRATION_STATES } from './migration-state';
import { MigrationRepository } from './repositories/migration.repository';

/** Migrations by state (read from Postgres at scrape time), documents moved and batch durations (this process). */
@Injectable()
export class MigrationMetrics {
  readonly documentsMoved: Counter;
  readonly batchDuration: Histogram;
  readonly byState: Gauge<'state'>;

  constructor(registry: MetricsRegistry, migrations: MigrationRepository) {
    this.documentsMoved = new Counter({
      name: 'migration_documents_moved_total',
      help: 'Documents moved to their target organization by this process',
      registers: [registry],
    });
    this.batchDuration = new Histogram({
      name: 'migration_batch_duration_seconds',
      help: 'Duration of one batch transaction (moves + checkpoint)',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.byState = new Gauge({
      name: 'migration_migrations',
      help: 'Migrations by state',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        try {
          const rows = await migrations.countByStatus();
          for (const state of MIGRATION_STATES)
            this.set({ state }, rows.find((row) => row.status === state)?.count ?? 0);
        } catch {
          // A scrape while Postgres is away keeps the last values rather than failing /metrics.
        }
      },
    });
  }
}
