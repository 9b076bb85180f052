import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { safeErrorMessage } from '@acme/platform-observability';
import { EventPartitionMaintenance } from '@acme/rum';

const EVERY_MS = 60 * 60 * 1000;

/**
 * Runs partition maintenance at start and hourly on every instance (no queue here): the advisory lock lets
 * one pass through and the others skip. The first pass is awaited so the app listens with today's partitions.
 */
@Injectable()
export class EventPartitionScheduler
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger(EventPartitionScheduler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly maintenance: EventPartitionMaintenance) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), EVERY_MS);
    this.timer.unref();
  }

  /** A pass in flight finishes before the connection pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private tick(): Promise<void> {
    this.running ??= this.maintenance
      .run()
      .then(({ created, dropped, skipped }) => {
        if (created.length > 0 || dropped.length > 0)
          this.logger.log(`error_events partitions created [${created.join(', ')}], dropped [${dropped.join(', ')}]`);
        else if (skipped)
          this.logger.debug('error_events partition maintenance skipped: another instance holds the lock');
      })
      // Ingest never depends on this pass (the default partition takes any row); log and try again next hour.
      .catch((error: Error) =>
        this.logger.error(`error_events partition maintenance failed: ${safeErrorMessage(error)}`),
      )
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
