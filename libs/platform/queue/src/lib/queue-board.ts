import { getQueueToken } from '@nestjs/bullmq';
import { DynamicModule, Inject, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AdminTokenGuard, AdminTokenSettings } from '@acme/platform-auth';
import { AppExceptionFilter, ErrorPresenter } from '@acme/platform-errors';

/**
 * bull-board's dashboard under the operator API, mounted outside Nest's routing on the engine's own router. bull-board
 * mounts on Express only, the engine of every service with queues; this is the one place beside the kernel
 * (libs/platform/http) that names an engine, kept in the queue lib so services without queues never load it.
 * AdminTokenGuard's rule (Bearer, or HTTP Basic with the token as password so a browser can open it), refusals in
 * the API's error shape.
 *
 * bull-board is loaded on the first authorised request, not at start: its packages are external to the bundle and
 * its BullMQ adapter requires a second copy of bullmq, ioredis and semver (~425 modules through Node's loader, about
 * 200 ms of CPU uncached: docs/benchmarks/start-up.md).
 */
const REALM = 'operator: any user name, ADMIN_TOKEN as password';

export interface QueueBoardOptions {
  route: string;
  presenter: ErrorPresenter;
  /** The BullMQ queues (registered with BullModule.registerQueue) the board shows. */
  queues: string[];
}

type Handler = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;
const OPTIONS = Symbol('QueueBoardOptions');

@Module({})
export class QueueBoardModule implements NestModule {
  static forRoot(options: QueueBoardOptions): DynamicModule {
    return { module: QueueBoardModule, providers: [{ provide: OPTIONS, useValue: options }] };
  }

  private router: Handler | undefined;

  constructor(
    @Inject(OPTIONS) private readonly options: QueueBoardOptions,
    private readonly settings: AdminTokenSettings,
    private readonly moduleRef: ModuleRef,
  ) {}

  configure(consumer: MiddlewareConsumer): void {
    const guard = new AdminTokenGuard(this.settings);
    const errors = new AppExceptionFilter(this.options.presenter);
    const operatorOnly: Handler = (request, response, next) => {
      try {
        guard.check(request, { basic: true });
      } catch (error) {
        // A browser asks for the token (any user name, the token as password) and resends it with every asset.
        if (this.settings.adminToken) response.setHeader('WWW-Authenticate', `Basic realm="${REALM}", charset="UTF-8"`);
        return errors.respond(error, request as never, response as never);
      }
      next();
    };
    const board: Handler = (request, response, next) => (this.router ??= this.mountBoard())(request, response, next);
    consumer.apply(operatorOnly, board).forRoutes(this.options.route);
  }

  /** The board's Express router with the options' queues (services set no global prefix: the route is the path). */
  private mountBoard(): Handler {
    const { createBullBoard } = require('@bull-board/api') as typeof import('@bull-board/api');
    const { BullMQAdapter } =
      require('@bull-board/api/bullMQAdapter') as typeof import('@bull-board/api/bullMQAdapter');
    const { ExpressAdapter } = require('@bull-board/express') as typeof import('@bull-board/express');
    const serverAdapter = new ExpressAdapter();
    serverAdapter.setBasePath(this.options.route);
    const queues = this.options.queues.map(
      (name) => new BullMQAdapter(this.moduleRef.get<Queue>(getQueueToken(name), { strict: false })),
    );
    createBullBoard({ queues, serverAdapter });
    return serverAdapter.getRouter() as Handler;
  }
}
