import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AdminTokenSettings, bearerToken, safeEqual } from '@acme/platform-auth';
import { MIGRATION_QUEUE } from '@acme/document-migration';
import { PlatformErrorCode, presentMigrationError } from '../http/error-presenter';

export const QUEUE_BOARD_ROUTE = '/admin/v1/queues';

/** Same rule as every operator route: hidden without ADMIN_TOKEN, 401 without the right bearer. */
export const operatorOnly =
  (settings: AdminTokenSettings) =>
  (request: Request, response: Response, next: NextFunction): void => {
    const expected = settings.adminToken;
    const presented = bearerToken(request);
    if (expected && presented && safeEqual(presented, expected)) return next();
    // The same codes and messages as AdminTokenGuard, which guards the other operator routes.
    const [code, kind, message] = expected
      ? ([PlatformErrorCode.AdminUnauthorized, 'unauthorized', 'A valid operator token is required.'] as const)
      : ([PlatformErrorCode.RouteNotFound, 'not_found', 'Not Found'] as const);
    const presentedError = presentMigrationError({ status: 0, code, kind, message, requestId: '' });
    response.status(presentedError.status).json(presentedError.body);
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
