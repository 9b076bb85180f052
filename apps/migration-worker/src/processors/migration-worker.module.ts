import { Processor } from '@nestjs/bullmq';
import {
  DynamicModule,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { MIGRATION_QUEUE, MigrationReconciler } from '@acme/document-migration';
import { MigrationEnv } from '../config/env';
import { ConfiguredDocumentMigrationModule } from '../configured-document-migration.module';
import { MoveDocumentsProcessor } from './move-documents.processor';

/** Runs the reconciler at start and then periodically (every worker does; it is idempotent). */
@Injectable()
export class ReconcileScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReconcileScheduler.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly reconciler: MigrationReconciler,
    private readonly env: MigrationEnv,
  ) {}

  onApplicationBootstrap(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.env.MIGRATION_RECONCILE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.reconciler.reconcile();
    } catch (error) {
      this.logger.warn({ err: error }, 'Reconcile failed; retrying next interval');
    } finally {
      this.running = false;
    }
  }
}

/** The BullMQ worker side. Worker options come from the validated env, so the processor is decorated here. */
@Module({})
export class MigrationWorkerModule {
  static forRoot(env: MigrationEnv): DynamicModule {
    class ConfiguredMoveDocumentsProcessor extends MoveDocumentsProcessor {}
    Processor(MIGRATION_QUEUE, {
      concurrency: env.MIGRATION_WORKER_CONCURRENCY,
      lockDuration: env.MIGRATION_LOCK_DURATION_MS,
      stalledInterval: env.MIGRATION_STALLED_INTERVAL_MS,
      maxStalledCount: env.MIGRATION_MAX_STALLED_COUNT,
    })(ConfiguredMoveDocumentsProcessor);
    return {
      module: MigrationWorkerModule,
      imports: [ConfiguredDocumentMigrationModule],
      providers: [ConfiguredMoveDocumentsProcessor, ReconcileScheduler],
    };
  }
}
