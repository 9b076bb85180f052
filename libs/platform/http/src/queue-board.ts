import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { DynamicModule } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AdminTokenGuard, AdminTokenSettings } from '@acme/platform-auth';
import { AppExceptionFilter, ErrorPresenter } from '@acme/platform-errors';

/**
 * bull-board's dashboard under the operator API. It is mounted outside Nest's routing, on the engine's own
 * router (Express, the engine of the services that run queues), so the kernel mounts it: AdminTokenGuard's rule,
 * refusals answered in the API's error shape. The app adds its queues with `BullBoardModule.forFeature`.
 * A secondary entry point (`@acme/platform-http/queue-board`): services without queues never load bull-board.
 */
export function queueBoard(options: { route: string; presenter: ErrorPresenter }): DynamicModule {
  return BullBoardModule.forRootAsync({
    inject: [AdminTokenSettings],
    useFactory: (settings: AdminTokenSettings) => {
      const guard = new AdminTokenGuard(settings);
      const errors = new AppExceptionFilter(options.presenter);
      const operatorOnly = (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
        try {
          guard.check(request);
        } catch (error) {
          return errors.respond(error, request as never, response as never);
        }
        next();
      };
      return { route: options.route, adapter: ExpressAdapter, middleware: operatorOnly };
    },
  });
}
