import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiter } from '@acme/platform-rate-limiting';

/**
 * The management API's own limit takes one Redis round trip per request. On a connection of its own with
 * ioredis auto-pipelining, the commands of concurrent requests leave in one write and their replies come
 * back in one read, instead of a write and a read per request. Same keys (the prefix is copied), same Lua.
 */
@Injectable()
export class ManagementLimiter extends RateLimiter implements OnApplicationShutdown {
  private static readonly logger = new Logger('ManagementLimiter');
  private readonly connection: Redis;

  constructor(@Inject(Redis) redis: Redis) {
    const connection = redis.duplicate({ enableAutoPipelining: true });
    connection.on('error', (error: Error) => ManagementLimiter.logger.warn(`Redis (management limit): ${error.message}`));
    super(connection);
    this.connection = connection;
  }

  onApplicationShutdown(): void {
    this.connection.disconnect();
  }
}
