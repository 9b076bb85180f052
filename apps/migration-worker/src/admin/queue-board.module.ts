import { MIGRATION_QUEUE } from '@acme/document-migration';
import { QueueBoardModule as PlatformQueueBoard } from '@acme/platform-queue';
import { presentMigrationError } from '../http/error-presenter';

export const QUEUE_BOARD_ROUTE = '/admin/v1/queues';

/** bull-board for the migration queue under the operator API (mounted by platform-queue: operator token, API's errors). */
export const QueueBoardModule = PlatformQueueBoard.forRoot({
  route: QUEUE_BOARD_ROUTE,
  presenter: presentMigrationError,
  queues: [MIGRATION_QUEUE],
});
