import { Inject, Logger } from '@nestjs/common';
import Redis, { Cluster, ClusterOptions, RedisOptions as IORedisOptions } from 'ioredis';
import type { RedisOptions } from './redis.options';
import { redisConnectionOptions } from './redis-url';

/** One Redis server or a Redis Cluster (REDIS_CLUSTER_NODES): every caller works with either. */
export type RedisClient = Redis | Cluster;

/** DI token of the app's shared Redis connection. */
export const REDIS_CLIENT = Symbol('RedisClient');
export const InjectRedis = () => Inject(REDIS_CLIENT);

const reconnectDelay = (attempt: number) => Math.min(attempt * 200, 2000);

/**
 * A Cluster client. Cluster mode (docs/decisions.md#redis-cluster): keys are routed by slot, MOVED/ASK
 * redirections followed, and a command to a failed master is retried until its replica takes over.
 */
export function createClusterClient(
  options: RedisOptions,
  extra: { keyPrefix?: string; redisOptions?: IORedisOptions; name: string },
): Cluster {
  const clusterOptions: ClusterOptions = {
    keyPrefix: extra.keyPrefix,
    enableOfflineQueue: true,
    clusterRetryStrategy: reconnectDelay,
    // A failed master is noticed within cluster-node-timeout; retry its slots every 100 ms meanwhile.
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    slotsRefreshTimeout: 1000,
    redisOptions: {
      connectionName: extra.name,
      username: options.username,
      password: options.password,
      tls: options.tls,
      ...extra.redisOptions,
    },
    // Over TLS, nodes are reached at the addresses the cluster announces, unresolved: managed clusters announce
    // names their certificates carry (docs/deploying.md#managed-redis).
    ...(options.tls ? { dnsLookup: (address: string, done: (e: null, a: string) => void) => done(null, address) } : {}),
  };
  return new Cluster(options.clusterNodes ?? [], clusterOptions);
}

export function createRedisClient(options: RedisOptions, name = 'redis'): RedisClient {
  const keyPrefix = `${options.prefix}:`;
  // Commands fail fast while Redis is down so callers can fail open; reconnection keeps trying.
  const client: RedisClient = options.clusterNodes
    ? createClusterClient(options, { keyPrefix, name, redisOptions: { maxRetriesPerRequest: 1 } })
    : new Redis({
        ...redisConnectionOptions(options),
        keyPrefix,
        connectionName: name,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: true,
        retryStrategy: reconnectDelay,
      });
  const logger = new Logger('Redis');
  client.on('error', (error: Error) => logger.warn(`${name}: ${error.message}`));
  return client;
}

/** A second connection to the same server or cluster, without the key prefix (subscribers, blocking reads). */
export function duplicateWithoutPrefix(client: RedisClient): RedisClient {
  return client instanceof Cluster
    ? client.duplicate(undefined, { keyPrefix: undefined })
    : client.duplicate({ keyPrefix: undefined });
}
