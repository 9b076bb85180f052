import type { ClusterNode } from './redis-url';

export interface RedisOptions {
  url: string;
  /** Namespace for every key and channel of this deployment, without the trailing colon. */
  prefix: string;
  /** Seed nodes of a Redis Cluster (REDIS_CLUSTER_NODES); when set, `url` is not used. */
  clusterNodes?: ClusterNode[];
}

export abstract class RedisSettings implements RedisOptions {
  abstract readonly url: string;
  abstract readonly prefix: string;
  abstract readonly clusterNodes?: ClusterNode[];
}
