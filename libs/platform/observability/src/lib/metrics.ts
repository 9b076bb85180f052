import { Controller, Get, Global, Header, Injectable, MiddlewareConsumer, Module, NestMiddleware, NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** One registry per app instance (several apps may share a process in tests); domains add their metrics. */
@Injectable()
export class MetricsRegistry extends Registry {
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;

  constructor() {
    super();
    collectDefaultMetrics({ register: this });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this],
    });
  }
}

/** Express: the route is known once the router matched, so the label is read when the response ends. */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly registry: MetricsRegistry) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const stop = this.registry.httpDuration.startTimer();
    response.on('finish', () => {
      // The matched pattern, not the raw URL, keeps label cardinality bounded.
      const route = (request.route as { path?: string } | undefined)?.path ?? 'unmatched';
      stop({ method: request.method, route: `${request.baseUrl}${route}`, status: String(response.statusCode) });
    });
    next();
  }
}

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}

@Global()
@Module({ controllers: [MetricsController], providers: [MetricsRegistry, HttpMetricsMiddleware], exports: [MetricsRegistry] })
export class MetricsModule implements NestModule {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly registry: MetricsRegistry,
  ) {}

  configure(consumer: MiddlewareConsumer): void {
    const adapter = this.adapterHost.httpAdapter;
    if (adapter?.getType() !== 'fastify') {
      consumer.apply(HttpMetricsMiddleware).forRoutes('*path');
      return;
    }
    // Fastify: one onResponse hook, labelled with the matched route pattern, no per-request listener.
    const histogram = this.registry.httpDuration;
    adapter.getInstance<FastifyInstance>().addHook('onResponse', (request, reply, done) => {
      histogram.observe({ method: request.method, route: request.routeOptions?.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
      done();
    });
  }
}
