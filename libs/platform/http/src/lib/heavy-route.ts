import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Counter, Gauge } from 'prom-client';
import { finalize, Observable } from 'rxjs';
import { instanceBusy } from '@acme/platform-errors';
import { MetricsRegistry } from '@acme/platform-observability';

const HEAVY_ROUTE = 'acme:heavy-route';

/** The per-instance bound on heavy routes (HEAVY_ROUTE_CONCURRENCY) and what each one has in flight. */
@Injectable()
export class HeavyRouteBound {
  private readonly inFlight = new Map<string, number>();
  private readonly refused: Counter<'route'>;

  constructor(
    readonly max: number,
    registry: MetricsRegistry,
  ) {
    const inFlight = this.inFlight;
    this.refused = new Counter({
      name: 'http_heavy_route_refused_total',
      help: 'Requests to a heavy route refused at once because this instance had HEAVY_ROUTE_CONCURRENCY of them in flight',
      labelNames: ['route'],
      registers: [registry],
    });
    new Gauge({
      name: 'http_heavy_route_in_flight',
      help: 'Requests to each heavy route this instance is running',
      labelNames: ['route'],
      registers: [registry],
      collect() {
        for (const [route, count] of inFlight) this.set({ route }, count);
      },
    });
  }

  /** Takes a slot for `route`, or says no at once. */
  enter(route: string): boolean {
    const current = this.inFlight.get(route) ?? 0;
    if (current >= this.max) {
      this.refused.inc({ route });
      return false;
    }
    this.inFlight.set(route, current + 1);
    return true;
  }

  leave(route: string): void {
    this.inFlight.set(route, Math.max(0, (this.inFlight.get(route) ?? 1) - 1));
  }
}

/**
 * Runs the handler only while this instance has fewer than HEAVY_ROUTE_CONCURRENCY requests of the route in
 * flight; past that it answers 503 "busy" with Retry-After in the API's shape at once, instead of queueing work
 * that would time out on the pool (docs/operations.md). After the guards: a refused caller is never counted.
 */
@Injectable()
export class HeavyRouteInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly bound: HeavyRouteBound,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get<string>(HEAVY_ROUTE, context.getHandler());
    if (!this.bound.enter(route)) throw instanceBusy();
    let left = false;
    const leave = () => {
      if (!left) this.bound.leave(route);
      left = true;
    };
    try {
      return next.handle().pipe(finalize(leave));
    } catch (error) {
      leave();
      throw error;
    }
  }
}

/** Marks an expensive operator route (a bulk import, a migration start): see HeavyRouteInterceptor. */
export const HeavyRoute = (name: string) =>
  applyDecorators(SetMetadata(HEAVY_ROUTE, name), UseInterceptors(HeavyRouteInterceptor));
