import { Controller, Get, Global, Header, Injectable, Module, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { MetricsTokenGuard } from '@acme/platform-auth';
import { registerEventLoopDelay } from './event-loop';

/** One registry per app instance (several apps may share a process in tests); domains add their metrics. */
@Injectable()
export class MetricsRegistry extends Registry {
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;

  constructor() {
    super();
    collectDefaultMetrics({ register: this });
    registerEventLoopDelay(this);
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this],
    });
  }

  /**
   * One answered request. `route` is the matched pattern, not the raw URL, so label cardinality stays bounded;
   * libs/platform/http calls this from each engine's own end-of-response point.
   */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }
}

@ApiExcludeController()
@Controller('metrics')
@UseGuards(MetricsTokenGuard)
export class MetricsController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}

@Global()
@Module({ controllers: [MetricsController], providers: [MetricsRegistry], exports: [MetricsRegistry] })
export class MetricsModule {}
