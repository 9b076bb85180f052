import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { DynamicModule } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AdminTokenGuard, AdminTokenSettings } from '@acme/platform-auth';
import { AppExceptionFilter, ErrorPresenter } from '@acme/platform-errors';

/**
 * bull-board's dashboard under the operator API, mounted outside Nest's routing on the engine's own router. bull-board
 * mounts on Express only, the engine of every service with queues; this is the one place beside the kernel
 * (libs/platform/http) that names an engine, kept in the queue lib so services without queues never load it.
 * AdminTokenGuard's rule (Bearer, or HTTP Basic with the token as password so a browser can open it), refusals in
 * the API's error shape; the app adds its queues with `BullBoardModule.forFeature`.
 */
const REALM = 'operator: any user name, ADMIN_TOKEN as password';

export function queueBoard(options: { route: string; presenter: ErrorPresenter }): DynamicModule {
  return BullBoardModule.forRootAsync({
    inject: [AdminTokenSettings],
    useFactory: (settings: AdminTokenSettings) => {
      const guard = new AdminTokenGuard(settings);
      const errors = new AppExceptionFilter(options.presenter);
      const operatorOnly = (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
        try {
          guard.check(request, { basic: true });
        } catch (error) {
          // A browser asks for the token (any user name, the token as password) and resends it with every asset.
          if (settings.adminToken) response.setHeader('WWW-Authenticate', `Basic realm="${REALM}", charset="UTF-8"`);
          return errors.respond(error, request as never, response as never);
        }
        next();
      };
      return { route: options.route, adapter: ExpressAdapter, middleware: operatorOnly };
    },
  });
}
