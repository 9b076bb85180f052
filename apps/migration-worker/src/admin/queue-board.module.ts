import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { BullBoardModule } from '@bull-board/nestjs';
import { Module } from '@nestjs/common';
import { MIGRATION_QUEUE } from '@acme/document-migration';
import { queueBoard } from '@acme/platform-queue';
import { presentMigrationError } from '../http/error-presenter';

export const QUEUE_BOARD_ROUTE = '/admin/v1/queues';

/** bull-board for the migration queue under the operator API (mounted by platform-queue: operator token, API's errors). */
@Module({
  imports: [
    queueBoard({ route: QUEUE_BOARD_ROUTE, presenter: presentMigrationError }),
    BullBoardModule.forFeature({ name: MIGRATION_QUEUE, adapter: BullMQAdapter }),
  ],
})
export class QueueBoardModule {}
