import { Controller, Get, Injectable, Module, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorResult,
  HealthIndicatorService,
  TerminusModule,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { InjectRedis, type RedisClient } from '@acme/platform-redis';
import { ShutdownState } from './shutdown-state';

@Injectable()
export class RedisHealthIndicator {
  constructor(
    @InjectRedis() private readonly redis: RedisClient,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async isHealthy(key = 'redis', timeoutMs = 1000): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), timeoutMs)),
      );
      await Promise.race([this.redis.ping(), timeout]).finally(() => clearTimeout(timer));
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }
}

/**
 * `/health` and `/health/ready` (readiness): 200 when Postgres and Redis answer; 503 with terminus' body naming what
 * is down; 503 `draining` from the moment the process was told to stop, so load balancers route elsewhere while it
 * finishes its requests. `/health/live` (liveness) only says the process answers: a database outage must not get
 * every instance restarted (docs/deploying.md#probes).
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly postgres: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly shutdown: ShutdownState,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  ready(
    @Res({ passthrough: true }) response: { status(code: number): unknown },
  ): Promise<HealthCheckResult | string | object> {
    return this.check(response);
  }

  @Get()
  async check(
    @Res({ passthrough: true }) response: { status(code: number): unknown },
  ): Promise<HealthCheckResult | string | object> {
    if (this.shutdown.draining) {
      response.status(503);
      return { status: 'draining', info: {}, error: {}, details: {} };
    }
    try {
      return await this.health.check([
        () => this.postgres.pingCheck('postgres', { timeout: 1000 }),
        () => this.redis.isHealthy('redis'),
      ]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503);
      return error.getResponse();
    }
  }
}

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [RedisHealthIndicator, ShutdownState],
  exports: [ShutdownState],
})
export class HealthModule {}
