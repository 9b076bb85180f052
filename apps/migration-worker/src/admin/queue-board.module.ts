import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AdminTokenGuard, AdminTokenSettings } from '@acme/platform-auth';
import { AppExceptionFilter } from '@acme/platform-errors';
import { MIGRATION_QUEUE } from '@acme/document-migration';
import { presentMigrationError } from '../http/error-presenter';

export const QUEUE_BOARD_ROUTE = '/admin/v1/queues';

/** bull-board is mounted outside Nest's routing: AdminTokenGuard's rule, answered in the API's error shape. */
export const operatorOnly = (settings: AdminTokenSettings) => {
  const guard = new AdminTokenGuard(settings);
  const errors = new AppExceptionFilter(presentMigrationError);
  return (request: Request, response: Response, next: NextFunction): void => {
    try {
      guard.check(request);
    } catch (error) {
      return errors.respond(error, request, response);
    }
    next();
  };
};

/** bull-board for the migration queue under the operator API. */
@Module({
  imports: [
    BullBoardModule.forRootAsync({
      inject: [AdminTokenSettings],
      useFactory: (settings: AdminTokenSettings) => ({ route: QUEUE_BOARD_ROUTE, adapter: ExpressAdapter, middleware: operatorOnly(settings) }),
    }),
    BullBoardModule.forFeature({ name: MIGRATION_QUEUE, adapter: BullMQAdapter }),
  ],
})
export class QueueBoardModule {}
